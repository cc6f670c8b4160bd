import { dependencyOutage } from "./dependency-outage";

const named = (name: string, fields: Record<string, unknown> = {}) =>
  Object.assign(new Error("x"), { name, ...fields });

describe("dependencyOutage", () => {
  it("reads Prisma's unreachable-database errors as a database outage", () => {
    expect(dependencyOutage(named("PrismaClientKnownRequestError", { code: "P1001" }))).toBe("database");
    expect(dependencyOutage(named("PrismaClientInitializationError"))).toBe("database");
    expect(
      dependencyOutage(
        named("PrismaClientKnownRequestError", {
          code: "P2010",
          meta: { driverAdapterError: { cause: { kind: "ConnectionClosed" } } },
        }),
      ),
    ).toBe("database");
    // node-postgres's words with no Prisma code over them: the socket closed under a query, or
    // the server shut down or is starting, also as the cause of another error
    expect(dependencyOutage(new Error("Connection terminated unexpectedly"))).toBe("database");
    expect(
      dependencyOutage(
        named("PrismaClientUnknownRequestError", {
          cause: new Error("terminating connection due to administrator command"),
        }),
      ),
    ).toBe("database");
    expect(dependencyOutage(new Error("the database system is starting up"))).toBe("database");
  });

  it("reads a pool with no connection free in time as a busy database, whichever layer gave up", () => {
    // node-postgres's pool, a query waiting for a connection or a new connection not accepted in time
    expect(dependencyOutage(new Error("timeout exceeded when trying to connect"))).toBe("database-busy");
    expect(dependencyOutage(new Error("Connection terminated due to connection timeout"))).toBe("database-busy");
    // Prisma's transaction manager: a list's count and page could not start their transaction within maxWait
    expect(
      dependencyOutage(
        named("PrismaClientKnownRequestError", {
          code: "P2028",
          message:
            "\nInvalid `db.scan.count()` invocation:\n\nTransaction API error: Unable to start a transaction in the given time.",
        }),
      ),
    ).toBe("database-busy");
    expect(dependencyOutage(named("PrismaClientKnownRequestError", { code: "P2024" }))).toBe("database-busy");
  });

  it("reads ioredis's offline errors as a queue outage, also when wrapped", () => {
    expect(dependencyOutage(new Error("Connection is closed."))).toBe("queue");
    expect(dependencyOutage(new Error("Stream isn't writeable and enableOfflineQueue options is false"))).toBe("queue");
    expect(dependencyOutage(named("MaxRetriesPerRequestError"))).toBe("queue");
    expect(dependencyOutage(new Error("Command timed out"))).toBe("queue");
    expect(
      dependencyOutage(new Error("enqueue failed", { cause: new Error("connect ECONNREFUSED 127.0.0.1:6379") })),
    ).toBe("queue");
  });

  it("leaves bugs as bugs", () => {
    expect(dependencyOutage(new TypeError("cannot read properties of undefined"))).toBeNull();
    expect(dependencyOutage(named("PrismaClientKnownRequestError", { code: "P2002" }))).toBeNull();
    // the transaction manager's other complaints are about the code, not the load
    expect(
      dependencyOutage(
        named("PrismaClientKnownRequestError", {
          code: "P2028",
          message: "Transaction API error: Transaction not found.",
        }),
      ),
    ).toBeNull();
    expect(dependencyOutage("a string")).toBeNull();
    expect(dependencyOutage(null)).toBeNull();
  });
});
