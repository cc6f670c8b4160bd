import {
  AppError,
  type CompetitorListQuery,
  type CompetitorView,
  type CreateCompetitorRequest,
  type DeletedRecord,
  likeLiteral,
  offsetOf,
  type PageMeta,
  type Plan,
  pageMeta,
  type UpdateCompetitorRequest,
} from "@scan/contract";
import type { Db } from "@scan/db";
import { type Owner, visibility } from "@scan/records";
import { type Tx, withUserLock } from "../access/user-lock";
import type { SiteService } from "../sites";
import type { VetDomains } from "./profile-service";
import { NEWEST_FIRST, toCompetitorView } from "./visibility-views";

const competitorNotFound = (id: string) =>
  new AppError(
    "not_found",
    `No competitor with id ${id} on this site`,
    "Use a competitor id from GET /api/v1/sites/{id}/competitors.",
  );

const nameTaken = (name: string, id: string) =>
  new AppError(
    "conflict",
    `The site is already measured against "${name}" (id ${id})`,
    "Competitors are one per name, ignoring case: change that one (PATCH), or give this one another name.",
  );

/** One competitor per name and site, ignoring case. */
const nameKeyOf = (name: string) => name.normalize("NFKC").toLowerCase();

export type CompetitorService = {
  /** The site's competitors, newest first; `q` finds a name or alias. */
  list: (
    workspaceId: string,
    siteId: string,
    query: CompetitorListQuery,
  ) => Promise<{ competitors: CompetitorView[]; meta: PageMeta }>;
  /** One of the site's competitors. */
  get: (workspaceId: string, siteId: string, competitorId: string) => Promise<CompetitorView>;
  /** Adds a competitor within the plan's number per site (403 `plan_limit` beyond it); a name it has already is 409. */
  create: (owner: Owner & { plan: Plan }, siteId: string, input: CreateCompetitorRequest) => Promise<CompetitorView>;
  /** Replaces the fields given of one of the site's competitors. */
  update: (
    workspaceId: string,
    siteId: string,
    competitorId: string,
    input: UpdateCompetitorRequest,
  ) => Promise<CompetitorView>;
  /** Stops measuring the site against one of its competitors. */
  remove: (workspaceId: string, siteId: string, competitorId: string) => Promise<DeletedRecord>;
};

/** The brands a site is measured against in AI answers, at most the plan's number per site. */
export const createCompetitorService = ({
  db,
  sites,
  vetDomains,
  competitorsByPlan,
}: {
  db: Db;
  sites: Pick<SiteService, "assertOwned">;
  vetDomains: VetDomains;
  /** competitors per site, by the workspace's plan */
  competitorsByPlan: Record<Plan, number>;
}): CompetitorService => {
  /** Under the site's lock: the plan's cap and the one-per-name rule hold against concurrent adds. */
  const underSiteLock = <T>(siteId: string, work: (tx: Tx) => Promise<T>) =>
    withUserLock(db, "visibility-competitors", siteId, work);

  const takenBy = (tx: Tx, siteId: string, nameKey: string, except?: string) =>
    tx.competitor.findFirst({
      where: { siteId, nameKey, ...(except ? { id: { not: except } } : {}) },
      select: { id: true, name: true },
    });

  const list = async (workspaceId: string, siteId: string, query: CompetitorListQuery) => {
    await sites.assertOwned(workspaceId, siteId);
    const where = {
      workspaceId,
      siteId,
      ...(query.q === undefined
        ? {}
        : {
            OR: [
              { name: { contains: likeLiteral(query.q), mode: "insensitive" as const } },
              // an alias is found by its exact words, as stored
              { aliases: { has: query.q } },
            ],
          }),
    };
    const [total, rows] = await db.$transaction(
      [
        db.competitor.count({ where }),
        db.competitor.findMany({ where, orderBy: NEWEST_FIRST, skip: offsetOf(query), take: query.limit }),
      ],
      { isolationLevel: "RepeatableRead" },
    );
    return { competitors: rows.map(toCompetitorView), meta: pageMeta(query, total) };
  };

  const get = async (workspaceId: string, siteId: string, competitorId: string) => {
    await sites.assertOwned(workspaceId, siteId);
    const competitor = await db.competitor.findFirst({ where: { id: competitorId, siteId, workspaceId } });
    if (!competitor) throw competitorNotFound(competitorId);
    return toCompetitorView(competitor);
  };

  const create = async (owner: Owner & { plan: Plan }, siteId: string, input: CreateCompetitorRequest) => {
    await sites.assertOwned(owner.workspaceId, siteId);
    await vetDomains(input.domains, "domains");
    const nameKey = nameKeyOf(input.name);
    return underSiteLock(siteId, async (tx) => {
      const taken = await takenBy(tx, siteId, nameKey);
      if (taken) throw nameTaken(taken.name, taken.id);
      const cap = competitorsByPlan[owner.plan];
      const count = await tx.competitor.count({ where: { siteId } });
      if (count >= cap)
        throw new AppError(
          "plan_limit",
          `The ${owner.plan} plan measures each site against at most ${cap} competitor${cap === 1 ? "" : "s"}`,
          "Remove a competitor of this site first, or move to a higher plan.",
        );
      const competitor = await visibility.insertCompetitor(
        tx,
        { workspaceId: owner.workspaceId, userId: owner.userId, siteId },
        { name: input.name, nameKey, aliases: input.aliases, domains: input.domains },
      );
      return toCompetitorView(competitor);
    });
  };

  const update = async (workspaceId: string, siteId: string, competitorId: string, input: UpdateCompetitorRequest) => {
    await sites.assertOwned(workspaceId, siteId);
    if (input.domains !== undefined) await vetDomains(input.domains, "domains");
    return underSiteLock(siteId, async (tx) => {
      const nameKey = input.name === undefined ? undefined : nameKeyOf(input.name);
      if (nameKey !== undefined) {
        const taken = await takenBy(tx, siteId, nameKey, competitorId);
        if (taken) throw nameTaken(taken.name, taken.id);
      }
      const changed = await visibility.changeCompetitor(
        tx,
        { workspaceId, siteId, id: competitorId },
        {
          ...(input.name === undefined ? {} : { name: input.name, nameKey }),
          ...(input.aliases === undefined ? {} : { aliases: input.aliases }),
          ...(input.domains === undefined ? {} : { domains: input.domains }),
        },
      );
      if (!changed) throw competitorNotFound(competitorId);
      return toCompetitorView(changed);
    });
  };

  const remove = async (workspaceId: string, siteId: string, competitorId: string) => {
    await sites.assertOwned(workspaceId, siteId);
    const { moved } = await visibility.removeCompetitor(db, { workspaceId, siteId, id: competitorId });
    if (!moved) throw competitorNotFound(competitorId);
    return { id: competitorId, deleted: true as const };
  };

  return { list, get, create, update, remove };
};
