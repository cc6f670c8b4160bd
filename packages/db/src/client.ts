import { PrismaPg } from "@prisma/adapter-pg";
import { connectionFields } from "./connection";
import { PrismaClient } from "./generated/prisma/client";

export type {
  ApiKey,
  Audit,
  AuditAlert,
  AuditLogEntry,
  AuditPage,
  AuditSchedule,
  CitationTrack,
  Client,
  Competitor,
  EngineKey,
  Keyword,
  Scan,
  Site,
  User,
  VisibilityAlert,
  VisibilityCitedPage,
  VisibilityProfile,
  VisibilityPrompt,
  VisibilityRun,
  VisibilitySample,
  WebhookDelivery,
  Workspace,
  WorkspaceInvitation,
} from "./generated/prisma/client";
export type Db = PrismaClient;
/** Prisma's namespace: `Prisma.sql` builds parameterised SQL fragments for raw queries */
export { Prisma } from "./generated/prisma/client";

export type DbOptions = {
  /** connections held open at most */
  poolSize?: number;
  /**
   * How long a query or a transaction waits for one of those connections (and a new connection
   * for Postgres to accept it) before it fails as busy (`isDatabaseBusy`). One bound for both:
   * left alone, a query waits without end while a transaction gives up after Prisma's 2 s.
   */
  poolWaitMs?: number;
};

/** The one place a PrismaClient is constructed; services receive it as a dependency. */
export const createDb = (databaseUrl: string, { poolSize = 10, poolWaitMs = 10_000 }: DbOptions = {}): Db =>
  new PrismaClient({
    adapter: new PrismaPg({ ...connectionFields(databaseUrl), max: poolSize, connectionTimeoutMillis: poolWaitMs }),
    transactionOptions: { maxWait: poolWaitMs },
  });
