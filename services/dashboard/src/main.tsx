import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app";
import { RendererPrint } from "./pages/print-report";
import { SessionProvider } from "./session";
import { WorkspacesProvider } from "./workspace";
import "./styles.css";

const root = document.getElementById("root");
// the gateway's renderer prints a report from this page: its data comes with the page, no session
const renderer =
  location.pathname.startsWith("/app/print/") && new URLSearchParams(location.search).get("source") === "renderer";
if (root && renderer) {
  createRoot(root).render(
    <StrictMode>
      <RendererPrint />
    </StrictMode>,
  );
} else if (root) {
  createRoot(root).render(
    <StrictMode>
      <SessionProvider>
        <WorkspacesProvider>
          <App />
        </WorkspacesProvider>
      </SessionProvider>
    </StrictMode>,
  );
}
