import type { Prisma } from "@scan/db";

type AiEngine = Prisma.EngineKeyCreateInput["engine"];

import type { DbClient } from "./transitions";

/**
 * What a site's AI visibility is tracked with: its profile, prompts and competitors, and the
 * workspace's engine keys. None of them has states; each change is written here once. Every
 * write names the workspace with the row, so a row of another workspace is never touched (the
 * operation says `{ moved: false }`, or answers null).
 */

type Owner = { workspaceId: string; userId: string };

export type ProfileFields = {
  brandNames: string[];
  brandDomains: string[];
  samplesPerPrompt: number;
  engines: AiEngine[];
};

/** Sets the site's profile whole: made on the first set, replaced after. */
export const saveProfile = (db: DbClient, owner: Owner & { siteId: string }, fields: ProfileFields) =>
  db.visibilityProfile.upsert({
    where: { siteId: owner.siteId, workspaceId: owner.workspaceId },
    create: { siteId: owner.siteId, workspaceId: owner.workspaceId, userId: owner.userId, ...fields },
    update: { ...fields, userId: owner.userId },
  });

export type PromptFields = {
  text: string;
  textKey: string;
  topic: string | null;
  tags: string[];
  locale: string | null;
};

/** Adds a prompt to one of the workspace's sites. */
export const insertPrompt = (db: DbClient, owner: Owner & { siteId: string }, fields: PromptFields) =>
  db.visibilityPrompt.create({ data: { ...owner, ...fields } });

/** Adds prompts to one of the workspace's sites, all or none (a clash of wordings fails them all). */
export const insertPrompts = (db: DbClient, owner: Owner & { siteId: string }, rows: readonly PromptFields[]) =>
  db.visibilityPrompt.createManyAndReturn({ data: rows.map((fields) => ({ ...owner, ...fields })) });

/** Changes the fields given of one of the workspace's prompts of a site; null when there is no such prompt. */
export const changePrompt = async (
  db: DbClient,
  where: { workspaceId: string; siteId: string; id: string },
  fields: Partial<PromptFields>,
) => {
  const { count } = await db.visibilityPrompt.updateMany({ where, data: fields });
  return count === 0 ? null : db.visibilityPrompt.findUnique({ where: { id: where.id } });
};

/** Stops tracking one of the workspace's prompts of a site. */
export const removePrompt = async (db: DbClient, where: { workspaceId: string; siteId: string; id: string }) => {
  const { count } = await db.visibilityPrompt.deleteMany({ where });
  return { moved: count > 0 };
};

export type CompetitorFields = { name: string; nameKey: string; aliases: string[]; domains: string[] };

/** Adds a competitor to one of the workspace's sites (the plan's cap is its caller's, under the site's lock). */
export const insertCompetitor = (db: DbClient, owner: Owner & { siteId: string }, fields: CompetitorFields) =>
  db.competitor.create({ data: { ...owner, ...fields } });

/** Changes the fields given of one of the workspace's competitors of a site; null when there is no such competitor. */
export const changeCompetitor = async (
  db: DbClient,
  where: { workspaceId: string; siteId: string; id: string },
  fields: Partial<CompetitorFields>,
) => {
  const { count } = await db.competitor.updateMany({ where, data: fields });
  return count === 0 ? null : db.competitor.findUnique({ where: { id: where.id } });
};

/** Stops measuring a site against one of the workspace's competitors. */
export const removeCompetitor = async (db: DbClient, where: { workspaceId: string; siteId: string; id: string }) => {
  const { count } = await db.competitor.deleteMany({ where });
  return { moved: count > 0 };
};

export type EngineKeyFields = {
  engine: AiEngine;
  /** sealed by the caller (@scan/platform secret-box): a plain key never reaches this module */
  keySealed: string;
  keyLast4: string;
  model: string | null;
};

/** Sets the workspace's key for an engine: made on the first set, replaced after; `created` says which. */
export const setEngineKey = async (db: DbClient, owner: Owner, fields: EngineKeyFields) => {
  const where = { workspaceId_engine: { workspaceId: owner.workspaceId, engine: fields.engine } };
  const existing = await db.engineKey.findUnique({ where, select: { id: true } });
  const key = await db.engineKey.upsert({
    where,
    create: { ...owner, ...fields },
    update: { ...fields, userId: owner.userId },
  });
  return { key, created: existing === null };
};

/** Removes the workspace's key for an engine. */
export const removeEngineKey = async (db: DbClient, workspaceId: string, engine: AiEngine) => {
  const { count } = await db.engineKey.deleteMany({ where: { workspaceId, engine } });
  return { moved: count > 0 };
};
