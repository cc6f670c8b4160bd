import { pathTable } from "./route-paths";

describe("pathTable", () => {
  const table = pathTable([
    { path: "/api/v1/keys", value: "keys" },
    { path: "/api/v1/keys/:id", value: "key" },
    { path: "/api/v1/scan", value: "scan" },
    { path: "/api/v1/scan/:id", value: "scan by id" },
  ]);

  it("matches a path as express does: any case, trailing slashes ignored, a parameter per segment", () => {
    expect(table.at("/api/v1/scan")).toEqual(["scan"]);
    expect(table.at("/API/v1/Scan/")).toEqual(["scan"]);
    expect(table.at("/api/v1/scan//")).toEqual(["scan"]);
    expect(table.at("/api/v1/scan/7d4f5a52")).toEqual(["scan by id"]);
    expect(table.at("/api/v1/keys/abc")).toEqual(["key"]);
  });

  it("finds nothing for unknown paths, deeper paths or empty segments", () => {
    expect(table.at("/api/v1/scans")).toEqual([]);
    expect(table.at("/api/v1/scan/a/b")).toEqual([]);
    expect(table.at("/api/v1//scan")).toEqual([]);
    expect(table.at("/api/v1")).toEqual([]);
    expect(table.at("/")).toEqual([]);
  });

  it("finds the routes a path is at or under, segment by segment", () => {
    expect(table.atOrUnder("/api/v1/keys/a/b")).toEqual(["keys", "key"]);
    expect(table.atOrUnder("/api/v1/keys")).toEqual(["keys"]);
    expect(table.atOrUnder("/api/v1/keys//x")).toEqual(["keys"]);
    expect(table.atOrUnder("/api/v1/keysets")).toEqual([]);
    expect(table.atOrUnder("/api/v1")).toEqual([]);
  });
});
