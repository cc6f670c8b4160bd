import { PrismaPg } from "@prisma/adapter-pg";
import { connectionFields } from "./connection";
import { PrismaClient } from "./generated/prisma/client";

export type {
  ApiKey,
  Audit,
  AuditAlert,
  AuditPage,
  AuditSchedule,
  CitationTrack,
  Keyword,
  Scan,
  Site,
  User,
  WebhookDelivery,
} from "./generated/prisma/client";
export type Db = PrismaClient;
/** Prisma's namespace: `Prisma.sql` builds parameterised SQL fragments for raw queries */
export { Prisma } from "./generated/prisma/client";

export type DbOptions = { poolSize?: number };

/** The one place a PrismaClient is constructed; services receive it as a dependency. */
export const createDb = (databaseUrl: string, { poolSize = 10 }: DbOptions = {}): Db =>
  new PrismaClient({ adapter: new PrismaPg({ ...connectionFields(databaseUrl), max: poolSize }) });
