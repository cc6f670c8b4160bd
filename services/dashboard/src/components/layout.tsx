import type { ReactNode } from "react";
import { Link, usePlace } from "../router";
import { useSession, useUser } from "../session";
import { WorkspaceSwitcher } from "./workspace-switcher";

const NAV: Array<{ to: string; label: string; operator?: boolean }> = [
  { to: "/scans", label: "Scans" },
  { to: "/sites", label: "Sites" },
  { to: "/settings/workspace", label: "Workspace" },
  { to: "/settings/keys", label: "API keys" },
  { to: "/settings/account", label: "Account" },
  { to: "/operations", label: "Operations", operator: true },
];

const SkipLink = () => (
  <a className="skip-link" href="#main">
    Skip to content
  </a>
);

/** The signed-in frame: the product, the sections, the workspace acted in, who is signed in, sign out. */
export const Shell = ({ children }: { children: ReactNode }) => {
  const user = useUser();
  const { signOut } = useSession();
  const { path } = usePlace();
  return (
    <>
      <SkipLink />
      <header className="top">
        <div className="top-inner">
          <Link to="/scans" className="brand">
            aeo-scan
          </Link>
          <nav aria-label="Sections" className="sections">
            <ul>
              {NAV.filter((item) => !item.operator || user.role === "operator").map((item) => (
                <li key={item.to}>
                  <Link to={item.to} aria-current={path.startsWith(item.to) ? "page" : undefined}>
                    {item.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <WorkspaceSwitcher />
          <div className="who">
            <span className="who-email" title={user.email}>
              {user.email}
            </span>
            <button type="button" className="button link" onClick={() => void signOut()}>
              Sign out
            </button>
          </div>
        </div>
      </header>
      <main id="main" className="main">
        {children}
      </main>
    </>
  );
};

/** The frame of the pages before signing in. */
export const Welcome = ({ children }: { children: ReactNode }) => (
  <>
    <SkipLink />
    <main id="main" className="welcome">
      <p className="brand brand-large">aeo-scan</p>
      <div className="card welcome-card">{children}</div>
      <p className="muted small">
        Scans pages for SEO, AEO and GEO signals. The API's reference is at <a href="/docs">/docs</a>.
      </p>
    </main>
  </>
);
