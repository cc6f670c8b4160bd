/** The only owner of the Prisma client: connection, client and migrations. */
export * from "./client";
export * from "./connection";
export * from "./migrate";
export * from "./outage";
