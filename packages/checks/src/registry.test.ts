import { CheckEvidence } from "@scan/contract";
import { CHECK_EVIDENCE, EVIDENCE_WEIGHTS } from "./evidence";
import { allChecks, checksFor, quickChecks } from "./registry";

describe("the catalogue", () => {
  it("has 57 checks with unique ids, 20 of them in the quick scan", () => {
    expect(allChecks).toHaveLength(57);
    expect(new Set(allChecks.map((check) => check.id)).size).toBe(57);
    expect(quickChecks).toHaveLength(20);
    expect(checksFor("quick")).toBe(quickChecks);
    expect(checksFor("full")).toBe(allChecks);
  });

  it("orders the areas as checks.md does: SEO, AEO, GEO", () => {
    const areas = allChecks.map((check) => check.category);
    expect(areas.indexOf("aeo")).toBe(24);
    expect(areas.indexOf("geo")).toBe(39);
    expect(allChecks.slice(53).map((check) => check.id)).toEqual([
      "agent-accessibility-tree",
      "webmcp-form-coverage",
      "webmcp-schema-validity",
      "cumulative-layout-shift",
    ]);
  });
});

describe("evidence grades", () => {
  it("grades every check in the catalogue", () => {
    const ungraded = allChecks.map((check) => check.id).filter((id) => !(id in CHECK_EVIDENCE));
    expect(ungraded).toEqual([]);
  });

  it("names a source and the day it was confirmed for every grade above convention", () => {
    for (const [id, evidence] of Object.entries(CHECK_EVIDENCE)) {
      expect([id, CheckEvidence.safeParse(evidence).success]).toEqual([id, true]);
      if (evidence.grade !== "convention") {
        expect([id, evidence.source !== null, evidence.checked]).toEqual([id, true, "2026-11-27"]);
      }
      // a date only with a source: a day on which nothing was read is no date at all
      expect([id, evidence.checked === null]).toEqual([id, evidence.source === null]);
    }
  });

  it("weighs documented checks fully, research less, studies half and conventions not at all", () => {
    expect(EVIDENCE_WEIGHTS).toEqual({ documented: 10, peer_reviewed: 8, industry_study: 5, convention: 0 });
  });

  it("grades llms.txt a convention, as Google's guide on generative AI features reads it", () => {
    expect(CHECK_EVIDENCE["llms-txt"]?.grade).toBe("convention");
    expect(CHECK_EVIDENCE["llms-txt-format"]?.grade).toBe("convention");
  });
});
