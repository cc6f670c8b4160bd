import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { visibilityRuns } from "@scan/records";
import { ensureDashboardBuilt } from "../scripts/dashboard-build";
import { createAccount, type TestAccount } from "./support/accounts";
import { eventually } from "./support/outages";
import { stopContainers } from "./support/services";
import { api, type Stack } from "./support/stack";
import { startVisibilityStack, type VisibilityStack } from "./support/visibility-stack";

/**
 * A visibility run's client report: two runs of a site completed by a real worker against local
 * servers speaking the engines' wire formats, the second's PDF made by the gateway's Chromium
 * from the dashboard's print view and read back with pdftotext: the agency's name, the site,
 * each engine's mention and citation rates with their intervals as the run's measures say, no
 * change called against the same answers, and the brand's own cited domain marked.
 */

type Json = Record<string, any>;

const AGENCY = "Northwind Search Partners";

const pdfText = (pdf: Buffer) => {
  const dir = mkdtempSync(join(tmpdir(), "visibility-pdf-"));
  try {
    const file = join(dir, "report.pdf");
    writeFileSync(file, pdf);
    const keep = process.env.REPORT_PDF_DIR;
    if (keep) {
      writeFileSync(join(keep, "visibility.pdf"), pdf);
      execFileSync("pdftoppm", ["-r", "80", "-png", "-f", "1", "-l", "1", file, join(keep, "visibility")]);
    }
    // in reading order, a cell's wrapped text together, runs of spaces as one; and with the layout
    // kept, a table's row on one line
    return {
      text: execFileSync("pdftotext", [file, "-"], { encoding: "utf8" }).replace(/\s+/g, " "),
      rows: execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" })
        .split("\n")
        .map((line) => line.trim().replace(/\s+/g, " ")),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

const percent = (value: number) => `${Math.round(value * 100)} %`;
const rateText = (rate: Json) =>
  `${percent(rate.rate)} (${Math.round(rate.low * 100)}–${Math.round(rate.high * 100)} %), ${rate.n} answers`;

describe("a visibility run's client report (PDF)", () => {
  let visibility: VisibilityStack;
  let stack: Stack;
  let owner: TestAccount;
  let stranger: TestAccount;
  let siteId: string;
  let runId = "";

  const call = (key: string, method: string, path: string, body?: unknown) =>
    api(stack.gateway.url, path, { method, headers: { "x-api-key": key }, ...(body === undefined ? {} : { body }) });
  const pdfOf = async (key: string, path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${stack.gateway.url}${path}`, { headers: { "x-api-key": key, ...headers } });
    return { response, bytes: Buffer.from(await response.arrayBuffer()) };
  };

  const completedRun = async () => {
    const started = await call(owner.key, "POST", `/api/v1/sites/${siteId}/visibility/runs`);
    expect(started.status).toBe(202);
    const id = (started.body as Json).data.id as string;
    await eventually(
      async () => (await stack.db.visibilityRun.findUniqueOrThrow({ where: { id } })).status === "completed",
      90_000,
      `run ${id} to complete`,
    );
    return id;
  };

  beforeAll(async () => {
    ensureDashboardBuilt();
    visibility = await startVisibilityStack({
      vendors: ["openai", "anthropic"],
      allowlist: ["acme.com"],
      workerEnv: { VISIBILITY_BACKOFF_MS: "200" },
    });
    stack = visibility.stack;
    owner = await createAccount(stack.db, "agency");
    stranger = await createAccount(stack.db, "agency");
    const site = await call(owner.key, "POST", "/api/v1/sites", { url: "https://acme.com", name: "Acme" });
    siteId = (site.body as Json).data.id as string;
    const profile = await call(owner.key, "PUT", `/api/v1/sites/${siteId}/visibility`, {
      brand_names: ["Acme"],
      brand_domains: ["acme.com"],
      samples_per_prompt: 3,
      engines: ["chatgpt", "claude"],
    });
    expect(profile.status).toBe(200);
    for (const text of ["Which project tracker suits a small team?", "What is the cheapest project tracker?"])
      expect((await call(owner.key, "POST", `/api/v1/sites/${siteId}/prompts`, { text })).status).toBe(201);
    expect((await call(owner.key, "POST", `/api/v1/sites/${siteId}/competitors`, { name: "Globex" })).status).toBe(201);
    expect((await call(owner.key, "PUT", "/api/v1/branding", { agency_name: AGENCY })).status).toBe(200);
    await completedRun();
    runId = await completedRun();
  }, 300_000);

  afterAll(async () => {
    await visibility?.close();
    await stopContainers();
  });

  it("prints the run in the agency's name: the site, each engine's rates with their intervals, no change called", async () => {
    const measures = ((await call(owner.key, "GET", `/api/v1/visibility/runs/${runId}`)).body as Json).data.measures;
    expect(measures.versus_previous).not.toBeNull();
    const { response, bytes } = await pdfOf(owner.key, `/api/v1/visibility/runs/${runId}?format=pdf`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="visibility-run-${runId}.pdf"`);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const { text, rows } = pdfText(bytes);
    expect(text).toContain(AGENCY);
    expect(text).toContain("AI visibility of Acme");
    expect(text).toContain("https://acme.com");
    expect(text).toContain("ChatGPT, Claude");
    for (const [engine, name] of [
      ["chatgpt", "ChatGPT"],
      ["claude", "Claude"],
    ]) {
      const row = (measures.engines as Json[]).find((e) => e.engine === engine) as Json;
      expect(row.mention_rate.n).toBe(6);
      expect(rows).toContain(`${name} ${rateText(row.mention_rate)} ${rateText(row.citation_rate)} 1.0`);
    }
    // the same answers as the previous run: Fisher's test calls no change, and the report says so
    expect(text).toContain(
      "Change since the previous run Engine Mentions Citations ChatGPT no significant change no significant change Claude no significant change no significant change",
    );
    expect(text).toContain("Share of voice");
    expect(text).toContain("Globex");
    // the most cited domains and pages, the brand's own marked
    const top = (measures.top_domains as Json[])[0] as Json;
    expect(text).toContain(top.key);
    if ((measures.top_domains as Json[]).some((row) => row.key === "acme.com"))
      expect(text).toContain("acme.com (your site)");
  }, 120_000);

  it("answers the PDF by Accept, and JSON by default", async () => {
    const { response, bytes } = await pdfOf(owner.key, `/api/v1/visibility/runs/${runId}`, {
      accept: "application/pdf",
    });
    expect(response.status).toBe(200);
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(response.headers.get("vary")).toMatch(/accept/i);
    const json = await call(owner.key, "GET", `/api/v1/visibility/runs/${runId}`);
    expect((json.body as Json).data.id).toBe(runId);
    const refused = await pdfOf(owner.key, `/api/v1/visibility/runs/${runId}`, { accept: "image/png" });
    expect(refused.response.status).toBe(406);
    const bad = await call(owner.key, "GET", `/api/v1/visibility/runs/${runId}?format=csv`);
    expect(bad.status).toBe(400);
  }, 60_000);

  it("refuses a run under way with 409 and Retry-After, and another workspace's run with 404", async () => {
    const site = await stack.db.site.findUniqueOrThrow({ where: { id: siteId } });
    const prompt = await stack.db.visibilityPrompt.findFirstOrThrow({ where: { siteId } });
    // stored as the gateway stores a run, its samples never queued: it stays queued
    const { run } = await visibilityRuns.insertRun(
      stack.db,
      {
        workspaceId: site.workspaceId,
        userId: owner.user.id,
        siteId,
        engines: ["chatgpt"],
        samplesPerPrompt: 1,
        requestId: "report-pdf-visibility",
      },
      [
        {
          promptId: prompt.id,
          promptText: prompt.text,
          promptLocale: prompt.locale,
          engine: "chatgpt",
          sampleIndex: 0,
        },
      ],
    );
    const underWay = await pdfOf(owner.key, `/api/v1/visibility/runs/${run.id}?format=pdf`);
    expect(underWay.response.status).toBe(409);
    expect(underWay.response.headers.get("retry-after")).toBe("60");
    const foreign = await pdfOf(stranger.key, `/api/v1/visibility/runs/${runId}?format=pdf`);
    expect(foreign.response.status).toBe(404);
    expect(JSON.parse(foreign.bytes.toString("utf8")).error.code).toBe("not_found");
  }, 60_000);

  it("keeps the route's key scope: a key of the run's site's client gets the PDF, another client's key 404", async () => {
    const asOwner = { "x-api-key": owner.key };
    const made = async (path: string, body: unknown, headers: Record<string, string>) => {
      const answer = await api(stack.gateway.url, path, { method: "POST", body, headers });
      expect(answer.status).toBe(201);
      return (answer.body as Json).data as Json;
    };
    const ours = (await made("/api/v1/clients", { name: "Acme Inc" }, asOwner)).id as string;
    const theirs = (await made("/api/v1/clients", { name: "Globex Inc" }, asOwner)).id as string;
    const assigned = await api(stack.gateway.url, `/api/v1/sites/${siteId}`, {
      method: "PATCH",
      body: { client_id: ours },
      headers: asOwner,
    });
    expect(assigned.status).toBe(200);
    const keyOf = async (client: string) =>
      (
        await made(
          "/api/v1/keys",
          { name: `client ${client}`, client_id: client },
          {
            authorization: `Bearer ${owner.token}`,
          },
        )
      ).key as string;
    const own = await pdfOf(await keyOf(ours), `/api/v1/visibility/runs/${runId}?format=pdf`);
    expect(own.response.status).toBe(200);
    expect(own.bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const other = await pdfOf(await keyOf(theirs), `/api/v1/visibility/runs/${runId}?format=pdf`);
    expect(other.response.status).toBe(404);
  }, 60_000);
});
