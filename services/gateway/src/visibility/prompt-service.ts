import {
  AppError,
  type CreatePromptRequest,
  type DeletedRecord,
  likeLiteral,
  offsetOf,
  type PageMeta,
  type PromptImportResult,
  type PromptListQuery,
  type PromptView,
  pageMeta,
  promptKeyOf,
  type UpdatePromptRequest,
} from "@scan/contract";
import type { Db } from "@scan/db";
import { type Owner, visibility } from "@scan/records";
import { type Tx, withUserLock } from "../access/user-lock";
import type { SiteService } from "../sites";
import { IMPORT_COLUMNS, readPromptCsv } from "./prompt-import";
import { NEWEST_FIRST, toPromptView } from "./visibility-views";

/** rows named in an import's refusal; the rest are counted */
const ROWS_NAMED = 10;

export const IMPORT_HINT = `Send the file as text/csv: a header row naming the columns (${IMPORT_COLUMNS.join(", ")}; text is required), then a row per prompt. tags: separated by |; locale: a BCP 47 tag such as en-US. Fix the rows named and send the whole file again.`;

const promptNotFound = (id: string) =>
  new AppError(
    "not_found",
    `No prompt with id ${id} on this site`,
    "Use a prompt id from GET /api/v1/sites/{id}/prompts.",
  );

const alreadyTracked = (text: string, id: string) =>
  new AppError(
    "conflict",
    `The site already tracks this prompt ("${text.slice(0, 80)}", id ${id})`,
    "Prompts are one per wording, ignoring case, spacing and closing punctuation: change that prompt, or word this one otherwise.",
  );

export type PromptService = {
  /** The site's prompts, newest first, filtered by text, topic, tag or locale. */
  list: (
    workspaceId: string,
    siteId: string,
    query: PromptListQuery,
  ) => Promise<{ prompts: PromptView[]; meta: PageMeta }>;
  /** One of the site's prompts. */
  get: (workspaceId: string, siteId: string, promptId: string) => Promise<PromptView>;
  /** Adds a prompt to one of the workspace's sites; a wording it tracks already is 409. */
  create: (owner: Owner, siteId: string, input: CreatePromptRequest) => Promise<PromptView>;
  /** Changes the fields given of one of the site's prompts. */
  update: (workspaceId: string, siteId: string, promptId: string, input: UpdatePromptRequest) => Promise<PromptView>;
  /** Stops tracking one of the site's prompts. */
  remove: (workspaceId: string, siteId: string, promptId: string) => Promise<DeletedRecord>;
  /**
   * Adds the prompts of a CSV file, all or none: a row at fault refuses the whole file (400,
   * naming the rows); a wording the site tracks already, or one an earlier row holds, is skipped
   * and reported. `created`: whether a prompt was added.
   */
  importCsv: (owner: Owner, siteId: string, csv: string) => Promise<{ result: PromptImportResult; created: boolean }>;
};

/** A site's prompts: what the engines are asked about it. */
export const createPromptService = ({
  db,
  sites,
}: {
  db: Db;
  sites: Pick<SiteService, "assertOwned">;
}): PromptService => {
  /** Under the site's lock: two writers of one wording store it once, and the second hears 409. */
  const underSiteLock = <T>(siteId: string, work: (tx: Tx) => Promise<T>) =>
    withUserLock(db, "visibility-prompts", siteId, work);

  const takenBy = async (tx: Tx, siteId: string, textKey: string, except?: string) =>
    tx.visibilityPrompt.findFirst({
      where: { siteId, textKey, ...(except ? { id: { not: except } } : {}) },
      select: { id: true, text: true },
    });

  const list = async (workspaceId: string, siteId: string, query: PromptListQuery) => {
    await sites.assertOwned(workspaceId, siteId);
    const where = {
      workspaceId,
      siteId,
      ...(query.q === undefined ? {} : { text: { contains: likeLiteral(query.q), mode: "insensitive" as const } }),
      ...(query.topic === undefined ? {} : { topic: { equals: query.topic, mode: "insensitive" as const } }),
      ...(query.tag === undefined ? {} : { tags: { has: query.tag } }),
      ...(query.locale === undefined ? {} : { locale: query.locale }),
    };
    const [total, rows] = await db.$transaction(
      [
        db.visibilityPrompt.count({ where }),
        db.visibilityPrompt.findMany({ where, orderBy: NEWEST_FIRST, skip: offsetOf(query), take: query.limit }),
      ],
      { isolationLevel: "RepeatableRead" },
    );
    return { prompts: rows.map(toPromptView), meta: pageMeta(query, total) };
  };

  const get = async (workspaceId: string, siteId: string, promptId: string) => {
    await sites.assertOwned(workspaceId, siteId);
    const prompt = await db.visibilityPrompt.findFirst({ where: { id: promptId, siteId, workspaceId } });
    if (!prompt) throw promptNotFound(promptId);
    return toPromptView(prompt);
  };

  const create = async (owner: Owner, siteId: string, input: CreatePromptRequest) => {
    await sites.assertOwned(owner.workspaceId, siteId);
    const textKey = promptKeyOf(input.text);
    return underSiteLock(siteId, async (tx) => {
      const taken = await takenBy(tx, siteId, textKey);
      if (taken) throw alreadyTracked(taken.text, taken.id);
      const prompt = await visibility.insertPrompt(
        tx,
        { ...owner, siteId },
        { text: input.text, textKey, topic: input.topic ?? null, tags: input.tags ?? [], locale: input.locale ?? null },
      );
      return toPromptView(prompt);
    });
  };

  const update = async (workspaceId: string, siteId: string, promptId: string, input: UpdatePromptRequest) => {
    await sites.assertOwned(workspaceId, siteId);
    return underSiteLock(siteId, async (tx) => {
      const textKey = input.text === undefined ? undefined : promptKeyOf(input.text);
      if (textKey !== undefined) {
        const taken = await takenBy(tx, siteId, textKey, promptId);
        if (taken) throw alreadyTracked(taken.text, taken.id);
      }
      const changed = await visibility.changePrompt(
        tx,
        { workspaceId, siteId, id: promptId },
        {
          ...(input.text === undefined ? {} : { text: input.text, textKey }),
          ...(input.topic === undefined ? {} : { topic: input.topic }),
          ...(input.tags === undefined ? {} : { tags: input.tags }),
          ...(input.locale === undefined ? {} : { locale: input.locale }),
        },
      );
      if (!changed) throw promptNotFound(promptId);
      return toPromptView(changed);
    });
  };

  const remove = async (workspaceId: string, siteId: string, promptId: string) => {
    await sites.assertOwned(workspaceId, siteId);
    const { moved } = await visibility.removePrompt(db, { workspaceId, siteId, id: promptId });
    if (!moved) throw promptNotFound(promptId);
    return { id: promptId, deleted: true as const };
  };

  const importCsv = async (owner: Owner, siteId: string, csv: string) => {
    await sites.assertOwned(owner.workspaceId, siteId);
    const reading = readPromptCsv(csv);
    if (!reading.ok) {
      if (reading.file !== null)
        throw new AppError("invalid_request", `Nothing was imported: ${reading.file}`, IMPORT_HINT);
      const named = reading.rowProblems.slice(0, ROWS_NAMED).map(({ row, problem }) => `row ${row}: ${problem}`);
      const more = reading.rowProblems.length - named.length;
      throw new AppError(
        "invalid_request",
        `Nothing was imported: ${reading.rowProblems.length} of ${reading.rows} rows cannot be imported. ${named.join("; ")}${more > 0 ? `; and ${more} more` : ""}`,
        IMPORT_HINT,
      );
    }
    return underSiteLock(siteId, async (tx) => {
      const tracked = await tx.visibilityPrompt.findMany({
        where: { siteId, textKey: { in: reading.prompts.map((row) => row.key) } },
        select: { id: true, textKey: true },
      });
      const trackedBy = new Map(tracked.map((prompt) => [prompt.textKey, prompt.id]));
      const fresh = reading.prompts.filter((row) => !trackedBy.has(row.key));
      const stored = await visibility.insertPrompts(
        tx,
        { ...owner, siteId },
        fresh.map(({ key, prompt }) => ({
          text: prompt.text,
          textKey: key,
          topic: prompt.topic ?? null,
          tags: prompt.tags ?? [],
          locale: prompt.locale ?? null,
        })),
      );
      const idOf = new Map([...trackedBy, ...stored.map((prompt) => [prompt.textKey, prompt.id] as const)]);
      const keyOfRow = new Map(reading.prompts.map((row) => [row.row, row.key]));
      const skipped = [
        ...reading.prompts
          .filter((row) => trackedBy.has(row.key))
          .map((row) => ({ row: row.row, text: row.prompt.text, reason: "tracked" as const, key: row.key })),
        ...reading.repeated.map((row) => ({
          row: row.row,
          text: row.text,
          reason: "repeated" as const,
          key: keyOfRow.get(row.of) ?? "",
        })),
      ]
        .sort((a, b) => a.row - b.row)
        .map(({ key, ...row }) => ({ ...row, prompt_id: idOf.get(key) ?? "" }));
      // the stored rows in the file's order
      const order = new Map(fresh.map((row, index) => [row.key, index]));
      const prompts = stored
        .sort((a, b) => (order.get(a.textKey) ?? 0) - (order.get(b.textKey) ?? 0))
        .map(toPromptView);
      return {
        result: { rows: reading.rows, imported: prompts.length, skipped, prompts },
        created: prompts.length > 0,
      };
    });
  };

  return { list, get, create, update, remove, importCsv };
};
