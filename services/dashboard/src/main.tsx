import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app";
import { SessionProvider } from "./session";
import { WorkspacesProvider } from "./workspace";
import "./styles.css";

const root = document.getElementById("root");
if (root) {
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
