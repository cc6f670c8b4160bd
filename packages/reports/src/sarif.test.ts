import { FINGERPRINT_KEY, fingerprintOf, levelOf, renderSarif } from "./sarif";
import { checkResult, pageReport } from "./testing";

const TOOL = { name: "aeo-scan", version: "1.2.3" };

describe("SARIF", () => {
  it("names levels from severity, a warning one step milder than a failure", () => {
    expect(levelOf({ status: "fail", severity: "critical" })).toBe("error");
    expect(levelOf({ status: "fail", severity: "warning" })).toBe("warning");
    expect(levelOf({ status: "fail", severity: "info" })).toBe("note");
    expect(levelOf({ status: "warn", severity: "critical" })).toBe("warning");
    expect(levelOf({ status: "warn", severity: "warning" })).toBe("note");
    expect(levelOf({ status: "warn", severity: "info" })).toBe("note");
  });

  it("keeps a finding's fingerprint when only numbers, case or spacing change", () => {
    const url = "https://example.com/";
    const a = fingerprintOf(checkResult({ id: "ttfb", description: "The server answered in 812 ms." }), url);
    expect(fingerprintOf(checkResult({ id: "ttfb", description: "The server  answered in 1,790 ms." }), url)).toBe(a);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    // another check, another page, or another finding is another fingerprint
    expect(fingerprintOf(checkResult({ id: "title", description: "The server answered in 812 ms." }), url)).not.toBe(a);
    expect(
      fingerprintOf(checkResult({ id: "ttfb", description: "The server answered in 812 ms." }), `${url}x`),
    ).not.toBe(a);
    expect(fingerprintOf(checkResult({ id: "ttfb", description: "The time was not measured." }), url)).not.toBe(a);
  });

  it("lists every check run as a rule and reports the failing and warning ones at the scanned URL", () => {
    const log = JSON.parse(renderSarif([pageReport()], TOOL));
    const run = log.runs[0];
    expect(log.version).toBe("2.1.0");
    expect(run.tool.driver).toMatchObject({ name: "aeo-scan", version: "1.2.3" });
    expect(run.tool.driver.rules.map((rule: { id: string }) => rule.id)).toEqual([
      "title",
      "llms-txt",
      "meta-description",
      "https",
      "faq-schema",
    ]);
    expect(run.tool.driver.rules[3]).toMatchObject({
      id: "https",
      name: "Https",
      shortDescription: { text: "Page is served over HTTPS" },
      defaultConfiguration: { level: "error" },
    });
    expect(run.results.map((result: { ruleId: string; level: string }) => [result.ruleId, result.level])).toEqual([
      ["llms-txt", "note"],
      ["meta-description", "warning"],
      ["https", "error"],
    ]);
    const https = run.results[2];
    expect(https.ruleIndex).toBe(3);
    expect(https.message.text).toBe("Plain HTTP. Fix: Use HTTPS.");
    expect(https.locations[0].physicalLocation.artifactLocation).toEqual({ uri: "https://example.com/", index: 0 });
    expect(https.partialFingerprints[FINGERPRINT_KEY]).toBe(
      fingerprintOf(checkResult({ id: "https", description: "Plain HTTP." }), "https://example.com/"),
    );
    expect(run.artifacts[0].properties).toMatchObject({ grade: "B", scores: { overall: 70 } });
    expect(run.invocations).toEqual([{ executionSuccessful: true }]);
  });

  it("reports a failed scan as an unsuccessful invocation", () => {
    const failed = pageReport({ status: "failed", checks: [], error: { code: "upstream_failure", message: "503" } });
    const run = JSON.parse(renderSarif([failed], TOOL)).runs[0];
    expect(run.results).toEqual([]);
    expect(run.invocations[0].executionSuccessful).toBe(false);
    expect(run.invocations[0].toolExecutionNotifications[0]).toMatchObject({
      level: "error",
      message: { text: "The scan of https://example.com/ failed: 503" },
    });
  });

  it("carries a failed render in the artifact's properties, and null when the page rendered", () => {
    const renderFailure = { code: "dom_unreadable" as const, message: "The page's scripts kept the browser busy." };
    const [judged, rendered] = [pageReport({ renderFailure }), pageReport()].map(
      (page) => JSON.parse(renderSarif([page], TOOL)).runs[0].artifacts[0].properties.renderFailure,
    );
    expect(judged).toEqual(renderFailure);
    expect(rendered).toBeNull();
  });

  it("points at the page without a scheme for GitHub code scanning, keeping the URL in the artifact", () => {
    const pages = [
      pageReport({ url: "https://example.com/a?b=1" }),
      pageReport({ url: "http://127.0.0.1:3000/x" }),
      pageReport({ url: "http://[::1]:8080/" }),
    ];
    const run = JSON.parse(renderSarif(pages, TOOL, { locations: "github" })).runs[0];
    expect(run.artifacts.map((artifact: { location: { uri: string } }) => artifact.location.uri)).toEqual([
      "example.com/a?b=1",
      "./127.0.0.1:3000/x",
      "./%5B::1%5D:8080/",
    ]);
    expect(run.artifacts[0].properties.url).toBe("https://example.com/a?b=1");
    expect(run.results[0].locations[0].physicalLocation.artifactLocation.uri).toBe("example.com/a?b=1");
    // the fingerprint is the page's, whichever way it is located
    expect(run.results[0].partialFingerprints).toEqual(
      JSON.parse(renderSarif([pages[0]!], TOOL)).runs[0].results[0].partialFingerprints,
    );
  });
});
