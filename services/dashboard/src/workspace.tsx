import { type DataOf, dataOf } from "@scan/client";
import { createContext, type ReactNode, useCallback, useContext, useState } from "react";
import { type Loaded, useLoad } from "./load";
import { useSession } from "./session";

/**
 * The signed-in member's workspaces and the one the session acts in. Switching asks the API
 * (POST /api/v1/workspaces/{id}/switch): from then on every JWT of the session reads and writes
 * there, so the pages are drawn again (`generation` changes) and load their data anew.
 */

export type WorkspaceView = DataOf<"listWorkspaces">[number];
export type WorkspaceRole = WorkspaceView["role"];

type WorkspacesValue = {
  workspaces: Loaded<WorkspaceView[]>;
  /** the session's current workspace, once the list is loaded */
  current: WorkspaceView | null;
  reload: () => Promise<void>;
  /** makes `id` the session's current workspace; throws the API's refusal */
  switchTo: (id: string) => Promise<void>;
  /** changes with every switch: the pages are keyed by it */
  generation: number;
};

const WorkspacesContext = createContext<WorkspacesValue | null>(null);

export const ROLE_NAMES: Record<WorkspaceRole, string> = {
  owner: "Owner",
  admin: "Admin",
  member: "Member",
  viewer: "Viewer",
};

/** Owners and admins manage a workspace's name, members and invitations (the API's rule). */
export const manages = (role: WorkspaceRole | undefined): boolean => role === "owner" || role === "admin";

/**
 * Whether the session's current workspace takes this member's writes: a viewer's are refused by
 * the API (403 `forbidden`), so the pages do not offer them. Until the role is known the controls
 * stay, and the API remains the judge.
 */
export const useCanWrite = (): boolean => useWorkspaces().current?.role !== "viewer";

export const WorkspacesProvider = ({ children }: { children: ReactNode }) => {
  const { state, api } = useSession();
  const userId = state.status === "signed-in" ? state.user.id : null;
  const [generation, setGeneration] = useState(0);
  const loaded = useLoad(async () => {
    if (!userId) return [];
    return dataOf(await api.GET("/api/v1/workspaces", { params: { query: { limit: 100 } } }));
  }, [api, userId, generation]);
  const { reload } = loaded;
  const switchTo = useCallback(
    async (id: string) => {
      dataOf(await api.POST("/api/v1/workspaces/{id}/switch", { params: { path: { id } } }));
      setGeneration((previous) => previous + 1);
    },
    [api],
  );
  const value: WorkspacesValue = {
    workspaces: loaded,
    current: loaded.data?.find((workspace) => workspace.current) ?? null,
    reload,
    switchTo,
    generation,
  };
  return <WorkspacesContext.Provider value={value}>{children}</WorkspacesContext.Provider>;
};

export const useWorkspaces = (): WorkspacesValue => {
  const value = useContext(WorkspacesContext);
  if (!value) throw new Error("useWorkspaces outside WorkspacesProvider");
  return value;
};
