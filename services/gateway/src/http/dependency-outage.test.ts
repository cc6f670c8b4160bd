import { dependencyOutage } from "./dependency-outage";

const named = (name: string, fields: Record<string, unknown> = {}) =>
  Object.assign(new Error("x"), { name, ...fields });

describe("dependencyOutage", () => {
  it("reads Prisma's unreachable-database errors as a database outage", () => {
    expect(dependencyOutage(named("PrismaClientKnownRequestError", { code: "P1001" }))).toBe("database");
    expect(dependencyOutage(named("PrismaClientKnownRequestError", { code: "P2024" }))).toBe("database");
    expect(dependencyOutage(named("PrismaClientInitializationError"))).toBe("database");
    expect(
      dependencyOutage(
        named("PrismaClientKnownRequestError", {
          code: "P2010",
          meta: { driverAdapterError: { cause: { kind: "ConnectionClosed" } } },
        }),
      ),
    ).toBe("database");
  });

  it("reads ioredis's offline errors as a queue outage, also when wrapped", () => {
    expect(dependencyOutage(new Error("Connection is closed."))).toBe("queue");
    expect(dependencyOutage(new Error("Stream isn't writeable and enableOfflineQueue options is false"))).toBe("queue");
    expect(dependencyOutage(named("MaxRetriesPerRequestError"))).toBe("queue");
    expect(
      dependencyOutage(new Error("enqueue failed", { cause: new Error("connect ECONNREFUSED 127.0.0.1:6379") })),
    ).toBe("queue");
  });

  it("leaves bugs as bugs", () => {
    expect(dependencyOutage(new TypeError("cannot read properties of undefined"))).toBeNull();
    expect(dependencyOutage(named("PrismaClientKnownRequestError", { code: "P2002" }))).toBeNull();
    expect(dependencyOutage("a string")).toBeNull();
    expect(dependencyOutage(null)).toBeNull();
  });
});
