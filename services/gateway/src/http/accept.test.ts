import { parseAccept, preferredType } from "./accept";

const SERVED = ["application/json", "text/csv", "application/sarif+json", "application/xml", "application/junit+xml"];

describe("Accept", () => {
  it.each([
    [undefined, "application/json"],
    ["", "application/json"],
    ["*/*", "application/json"],
    ["application/*", "application/json"],
    ["text/*", "text/csv"],
    ["text/csv", "text/csv"],
    ["TEXT/CSV", "text/csv"],
    ["text/csv; charset=utf-8; header=present", "text/csv"],
    ["application/json; charset=utf-8", "application/json"],
    ["application/sarif+json", "application/sarif+json"],
    ["application/junit+xml", "application/junit+xml"],
    ["text/csv, application/json", "text/csv"],
    ["application/json, text/csv", "application/json"],
    ["text/csv;q=0.5, application/json;q=0.9", "application/json"],
    ["text/csv;q=1.0, */*;q=0.1", "text/csv"],
    ["*/*;q=0.8, application/xml;q=0.9", "application/xml"],
    ["text/csv;q=0, */*", "application/json"],
    ["application/json;q=0, text/*", "text/csv"],
    ['text/csv;foo="a,b";q=0.4, application/sarif+json;q=0.3', "text/csv"],
    // nothing that can be read: as if no Accept was sent
    ["garbage", "application/json"],
    ["text/csv;q=2", "application/json"],
  ] as const)("%j chooses %s", (header, expected) => {
    expect(preferredType(header, SERVED)).toBe(expected);
  });

  it.each(["text/html", "image/png, text/html;q=0.9", "application/json;q=0, text/csv;q=0, */*;q=0", "*/*;q=0"])(
    "%j accepts nothing served",
    (header) => {
      expect(preferredType(header, SERVED)).toBeNull();
    },
  );

  it("reads ranges, weights and their order, leaving malformed ones out", () => {
    expect(parseAccept('text/csv;q=0.5, bad, */json, application/xml;x="q=0;,";q=0.25 ,*/*')).toEqual([
      { type: "text", subtype: "csv", q: 0.5, position: 0 },
      { type: "application", subtype: "xml", q: 0.25, position: 3 },
      { type: "*", subtype: "*", q: 1, position: 4 },
    ]);
  });
});
