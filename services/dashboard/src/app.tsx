import { Fragment, type ReactNode, useEffect } from "react";
import { Shell, Welcome } from "./components/layout";
import { Empty, Loading, PageTitle } from "./components/ui";
import { Account } from "./pages/account";
import { AcceptInvitation, ResetPassword, SignIn, SignUpPage } from "./pages/auth-pages";
import { Keys } from "./pages/keys";
import { Operations } from "./pages/operations";
import { PrintPage } from "./pages/print-report";
import { ScanReport } from "./pages/scan-report";
import { Scans } from "./pages/scans";
import { SitePage } from "./pages/site";
import { SiteVisibility } from "./pages/site-visibility";
import { Sites } from "./pages/sites";
import { WorkspaceInvitation } from "./pages/workspace-invitation";
import { WorkspaceSettings } from "./pages/workspace-settings";
import { currentTarget, Link, match, navigate, usePlace } from "./router";
import { useSession } from "./session";
import { useWorkspaces } from "./workspace";

type Page = { pattern: string; page: (params: Record<string, string>) => ReactNode; public?: boolean };

const PAGES: Page[] = [
  { pattern: "/sign-in", page: () => <SignIn />, public: true },
  { pattern: "/sign-up", page: () => <SignUpPage />, public: true },
  { pattern: "/invitation", page: () => <AcceptInvitation />, public: true },
  { pattern: "/accept-invitation", page: () => <AcceptInvitation />, public: true },
  { pattern: "/reset-password", page: () => <ResetPassword />, public: true },
  // signed in or out: signed out, it offers to sign in or up and comes back
  { pattern: "/workspace-invitation", page: () => <WorkspaceInvitation />, public: true },
  { pattern: "/scans", page: () => <Scans /> },
  { pattern: "/scans/:id", page: ({ id = "" }) => <ScanReport key={id} id={id} /> },
  { pattern: "/sites", page: () => <Sites /> },
  { pattern: "/sites/:id", page: ({ id = "" }) => <SitePage key={id} id={id} /> },
  { pattern: "/sites/:id/visibility", page: ({ id = "" }) => <SiteVisibility key={id} id={id} /> },
  { pattern: "/settings/workspace", page: () => <WorkspaceSettings /> },
  { pattern: "/settings/keys", page: () => <Keys /> },
  { pattern: "/settings/account", page: () => <Account /> },
  { pattern: "/operations", page: () => <Operations /> },
  { pattern: "/print/scans/:id", page: ({ id = "" }) => <PrintPage key={id} kind="scan" id={id} /> },
  { pattern: "/print/audits/:id", page: ({ id = "" }) => <PrintPage key={id} kind="audit" id={id} /> },
  { pattern: "/print/visibility/:id", page: ({ id = "" }) => <PrintPage key={id} kind="visibility" id={id} /> },
];

const NotFound = ({ signedIn }: { signedIn: boolean }) => {
  const body = (
    <>
      <PageTitle>Page not found</PageTitle>
      <Empty title="There is no such page in the dashboard.">
        <p>
          Go to <Link to={signedIn ? "/scans" : "/sign-in"}>{signedIn ? "your scans" : "sign in"}</Link>.
        </p>
      </Empty>
    </>
  );
  return signedIn ? <Shell>{body}</Shell> : <Welcome>{body}</Welcome>;
};

/** Moves to another page once this one has rendered (never during a render). */
const Redirect = ({ to }: { to: string }) => {
  useEffect(() => navigate(to, { replace: true }), [to]);
  return null;
};

export const App = () => {
  const { state } = useSession();
  const { path } = usePlace();
  const { generation } = useWorkspaces();
  if (state.status === "loading")
    return (
      <main className="welcome" id="main">
        <Loading what="the dashboard" />
      </main>
    );
  const signedIn = state.status === "signed-in";
  if (path === "/") return <Redirect to={signedIn ? "/scans" : "/sign-in"} />;
  for (const entry of PAGES) {
    const params = match(entry.pattern, path);
    if (!params) continue;
    if (entry.public) {
      // a signed-in user opening sign-in or sign-up goes to the scans
      if (signedIn && (entry.pattern === "/sign-in" || entry.pattern === "/sign-up")) return <Redirect to="/scans" />;
      return entry.page(params);
    }
    if (!signedIn) return <Redirect to={`/sign-in?next=${encodeURIComponent(currentTarget())}`} />;
    // a switch of workspace draws the page again, so it loads the new workspace's data
    return <Fragment key={generation}>{entry.page(params)}</Fragment>;
  }
  return <NotFound signedIn={signedIn} />;
};
