import { AppError } from "@scan/contract";
import { z } from "zod";
import { parseBody, parseInput } from "./route-input";

const Query = z.strictObject({ limit: z.coerce.number().int().max(100).default(20) });
const Body = z.strictObject({ url: z.string(), name: z.string().optional() });

const refusal = (run: () => unknown): AppError => {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("no refusal");
};

describe("parseInput", () => {
  it("answers the schema's output", () => {
    expect(parseInput({ schema: Query, hint: "h" }, { limit: "5" }, "query parameter")).toEqual({ limit: 5 });
    expect(parseInput({ schema: Query, hint: "h" }, {}, "query parameter")).toEqual({ limit: 20 });
  });

  it("refuses with 400, zod's issues by path and the hint", () => {
    const error = refusal(() => parseInput({ schema: Query, hint: "limit from 1 to 100" }, { limit: "500" }, "x"));
    expect([error.kind, error.status, error.hint]).toEqual(["invalid_request", 400, "limit from 1 to 100"]);
    expect(error.message).toMatch(/^limit: /);
    expect(refusal(() => parseInput({ schema: Query, hint: "" }, { other: 1 }, "x")).message).toMatch(/^body: /);
  });

  it("names unknown keys where asked", () => {
    const spec = { schema: Query, hint: "", report: "names" as const };
    expect(refusal(() => parseInput(spec, { sort: "a", page: "2" }, "query parameter")).message).toBe(
      'unknown query parameter "sort", "page"',
    );
  });
});

describe("parseBody", () => {
  it("refuses a body that is not a JSON object, with the Content-Type reminder when one is required", () => {
    for (const body of [undefined, null, "text", 3, [{ url: "u" }]]) {
      const error = refusal(() => parseBody({ schema: Body, hint: "Send JSON." }, body));
      expect([error.message, error.hint]).toEqual([
        "The request body must be a JSON object",
        "Send JSON. Content-Type must be application/json.",
      ]);
    }
  });

  it("reads a missing optional body as the empty object; other non-objects are refused without the reminder", () => {
    const Optional = z.strictObject({ name: z.string().optional() });
    expect(parseBody({ schema: Optional, hint: "h", optional: true }, undefined)).toEqual({});
    const error = refusal(() => parseBody({ schema: Optional, hint: "h", optional: true }, []));
    expect([error.message, error.hint]).toEqual(["The request body must be a JSON object", "h"]);
  });

  it("says to send Content-Type: application/json when a body came with another type or none", () => {
    const spec = { schema: Body, hint: "Send JSON.", optional: true };
    const none = refusal(() => parseBody(spec, undefined, { contentType: undefined, hasBody: true }));
    expect([none.message, none.hint]).toEqual([
      "The request body was sent without a Content-Type",
      "Send it as JSON with the header Content-Type: application/json. Send JSON.",
    ]);
    const text = refusal(() => parseBody(spec, undefined, { contentType: "text/plain", hasBody: true }));
    expect(text.message).toBe("The request body was sent as text/plain, which is not JSON");
  });

  it("names the fields at fault in either report", () => {
    expect(refusal(() => parseBody({ schema: Body, hint: "" }, { name: "x" })).message).toMatch(/^url: /);
    const named = refusal(() => parseBody({ schema: Body, hint: "", report: "names" }, { url: "u", extra: 1 }));
    expect(named.message).toBe('unknown field "extra"');
  });
});
