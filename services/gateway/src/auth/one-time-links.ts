import { AppError, emailOrRefusal, type Plan, type Role, type WorkspaceRole } from "@scan/contract";
import type { Db } from "@scan/db";
import { newSecret, sha256Hex } from "../access/session-service";
import type { Tx } from "../access/user-lock";

/** Where the dashboard takes a link's token: in the fragment, which browsers never send to a server or a log. */
export const INVITATION_PATH = "/app/invitation";
export const PASSWORD_RESET_PATH = "/app/reset-password";
export const WORKSPACE_INVITATION_PATH = "/app/workspace-invitation";

export const linkTo = (publicUrl: string, path: string, token: string): string =>
  `${publicUrl.replace(/\/+$/, "")}${path}#token=${token}`;

export type OneTimeLink = { url: string; token: string; expiresAt: Date };

/**
 * The service's one-time links: an invitation to sign up as a given email and a password reset
 * for an existing user (the operator's accounts CLI makes them), and an invitation of an email
 * into a workspace with a role (its owners and admins make them). Each token is 32 random
 * bytes, kept only as its SHA-256, and works once, before its expiry.
 */
export const createOneTimeLinks = ({ db, publicUrl }: { db: Db; publicUrl: string }) => {
  const invite = async (
    email: string,
    { plan, role, lifetimeS }: { plan: Plan; role: Role; lifetimeS: number },
  ): Promise<OneTimeLink & { email: string }> => {
    const address = emailOrRefusal(email);
    if (await db.user.findUnique({ where: { email: address } })) {
      throw new AppError(
        "invalid_request",
        `A user with email ${address} already exists`,
        "Give them a password reset link instead (accounts reset-link).",
      );
    }
    const token = newSecret();
    const expiresAt = new Date(Date.now() + lifetimeS * 1000);
    await db.invitation.create({ data: { email: address, plan, role, tokenHash: sha256Hex(token), expiresAt } });
    return { email: address, token, expiresAt, url: linkTo(publicUrl, INVITATION_PATH, token) };
  };

  const passwordReset = async (user: { id: string }, lifetimeS: number): Promise<OneTimeLink> => {
    const token = newSecret();
    const expiresAt = new Date(Date.now() + lifetimeS * 1000);
    await db.passwordReset.create({ data: { userId: user.id, tokenHash: sha256Hex(token), expiresAt } });
    return { token, expiresAt, url: linkTo(publicUrl, PASSWORD_RESET_PATH, token) };
  };

  const workspaceInvite = async (
    invitation: { workspaceId: string; email: string; role: WorkspaceRole; invitedById: string },
    lifetimeS: number,
    /** the transaction to write the row in (with its audit log entry) */
    client: Db | Tx = db,
  ): Promise<OneTimeLink & { id: string; createdAt: Date }> => {
    const token = newSecret();
    const expiresAt = new Date(Date.now() + lifetimeS * 1000);
    const row = await client.workspaceInvitation.create({
      data: { ...invitation, email: emailOrRefusal(invitation.email), tokenHash: sha256Hex(token), expiresAt },
    });
    return {
      id: row.id,
      createdAt: row.createdAt,
      token,
      expiresAt,
      url: linkTo(publicUrl, WORKSPACE_INVITATION_PATH, token),
    };
  };

  return { invite, passwordReset, workspaceInvite };
};
