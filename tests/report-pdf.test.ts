import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureDashboardBuilt } from "../scripts/dashboard-build";
import { createAccount, type TestAccount } from "./support/accounts";
import { type FixtureServer, startFixtureServer } from "./support/fixture-server";
import { eventually } from "./support/outages";
import { solidPng } from "./support/png";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { api, type Stack, startStack } from "./support/stack";

/**
 * Client reports: a planted site audited twice, its second audit's report made as a PDF by the
 * gateway's Chromium from the dashboard's print view, then read back with poppler (pdftotext,
 * pdftoppm): the agency's name, the grade, the four scores and every row of the issue rollup
 * with its page count and change are in its text, and the agency's logo is on its first page.
 * A scan's PDF likewise. The branding's bad inputs are refused with the envelope's errors.
 */

type Json = Record<string, any>;

const AGENCY = "Northwind Search Partners";
/** the logo's colour: nothing else in a report is this magenta */
const LOGO_RGB = [226, 0, 122] as const;

/** The PDF's text (layout kept, so a table row stays on one line) and its first page's pixels. */
const readPdf = (pdf: Buffer) => {
  const dir = mkdtempSync(join(tmpdir(), "report-pdf-"));
  try {
    const file = join(dir, "report.pdf");
    writeFileSync(file, pdf);
    const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
    // in reading order: a table cell's wrapped text stays together
    const plain = execFileSync("pdftotext", [file, "-"], { encoding: "utf8" });
    const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync("pdfinfo", [file], { encoding: "utf8" }))?.[1]);
    execFileSync("pdftoppm", ["-r", "60", "-f", "1", "-l", "1", file, join(dir, "page")]);
    const image = readFileSync(join(dir, "page-1.ppm"));
    // REPORT_PDF_DIR keeps the PDF and its pages as images, to look at
    const keep = process.env.REPORT_PDF_DIR;
    if (keep) {
      const name = `report-${Date.now()}`;
      writeFileSync(join(keep, `${name}.pdf`), pdf);
      execFileSync("pdftoppm", ["-r", "80", "-png", file, join(keep, name)]);
    }
    return { text, plain, pages, image };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

/** Pixels of a binary PPM (P6) close to `rgb`. */
const pixelsNear = (ppm: Buffer, [r, g, b]: readonly [number, number, number]) => {
  const header = /^P6\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(ppm.subarray(0, 64).toString("latin1"));
  if (!header) throw new Error("not a binary PPM");
  let count = 0;
  for (let i = header[0].length; i + 2 < ppm.length; i += 3) {
    if (
      Math.abs((ppm[i] as number) - r) < 24 &&
      Math.abs((ppm[i + 1] as number) - g) < 24 &&
      Math.abs((ppm[i + 2] as number) - b) < 24
    )
      count += 1;
  }
  return count;
};

const pageOf = ({
  title,
  description = true,
  h1 = true,
  links,
}: {
  title: string | null;
  description?: boolean;
  h1?: boolean;
  links: string[];
}) =>
  `<!doctype html><html lang="en"><head>${title === null ? "" : `<title>${title}</title>`}
${description ? `<meta name="description" content="${title ?? "A page"}: a page of the planted site, described.">` : ""}</head>
<body><main>${h1 ? `<h1>${title ?? "A page"}</h1>` : "<p>No heading here.</p>"}<p>Words on the page for the checks to read.</p>
${links.map((link) => `<a href="${link}">${link}</a>`).join(" ")}</main></body></html>`;

/** Round 1: /a and /b lack a meta description, /c an h1. Round 2: /a still lacks it; /c has its h1 but no title. */
let round = 1;
const routesOf = (): Record<string, string> => ({
  "/": pageOf({ title: "The home page of the planted site", links: ["/a", "/b", "/c"] }),
  "/a": pageOf({ title: "The first page of the planted site", description: false, links: ["/"] }),
  "/b": pageOf({ title: "The second page of the planted site", description: round === 2, links: ["/"] }),
  "/c": pageOf({ title: round === 1 ? "The third page of the planted site" : null, h1: round === 2, links: ["/"] }),
});

afterAll(() => stopContainers());

describe("client reports (PDF)", () => {
  let site: FixtureServer;
  let database: TestDatabase;
  let stack: Stack;
  let owner: TestAccount;
  let siteId: string;
  let auditId: string;

  const call = async (
    path: string,
    init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
  ) => {
    const response = await api(stack.gateway.url, path, {
      ...init,
      headers: { "x-api-key": owner.key, ...init.headers },
    });
    return { ...response, body: response.body as Json };
  };
  const pdfOf = async (path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${stack.gateway.url}${path}`, { headers: { "x-api-key": owner.key, ...headers } });
    return { response, bytes: Buffer.from(await response.arrayBuffer()) };
  };

  const audit = async () => {
    const started = await call(`/api/v1/sites/${siteId}/audits`, { body: { mode: "quick" } });
    expect(started.status).toBe(202);
    const id = started.body.data.id as string;
    await eventually(
      async () => (await stack.db.audit.findUniqueOrThrow({ where: { id } })).status === "completed",
      90_000,
      "the audit to complete",
    );
    return id;
  };

  beforeAll(async () => {
    ensureDashboardBuilt();
    site = await startFixtureServer({}, (req: IncomingMessage, res: ServerResponse) => {
      const body = routesOf()[new URL(req.url ?? "/", "http://x").pathname];
      if (body === undefined) return res.writeHead(404, { "content-type": "text/html" }).end("<title>gone</title>");
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body);
    });
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [site.hostPort],
      env: { RATE_LIMIT_AGENCY: "100000" },
    });
    owner = await createAccount(stack.db, "agency");
    const created = await call("/api/v1/sites", { body: { url: site.url("/") } });
    siteId = created.body.data.id as string;
    await audit();
    round = 2;
    auditId = await audit();
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await site?.close();
    await database?.drop();
  });

  it("stores the agency's name and logo and serves the logo from the gateway's own origin", async () => {
    const before = await call("/api/v1/branding");
    expect(before.status).toBe(200);
    expect(before.body.data).toMatchObject({ agency_name: null, logo_url: null });
    const logo = solidPng(240, 60, LOGO_RGB);
    const set = await call("/api/v1/branding", {
      method: "PUT",
      body: { agency_name: `  ${AGENCY} `, logo: { type: "image/png", data: logo.toString("base64") } },
    });
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({ agency_name: AGENCY, logo_type: "image/png" });
    const url = set.body.data.logo_url as string;
    expect(url).toMatch(/^\/logos\/[A-Za-z0-9_-]{32}$/);
    // no credentials: an <img> and the renderer load it as it is
    const served = await fetch(`${stack.gateway.url}${url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await served.arrayBuffer()).equals(logo)).toBe(true);
    // the name alone changes; the logo stays
    const renamed = await call("/api/v1/branding", { method: "PUT", body: { agency_name: AGENCY } });
    expect(renamed.body.data.logo_url).toBe(url);
    const missing = await fetch(`${stack.gateway.url}/logos/${"x".repeat(32)}`);
    expect(missing.status).toBe(404);
  });

  it("refuses a logo that is not what it says, too large, or SVG, and leaves the stored one", async () => {
    const stored = (await call("/api/v1/branding")).body.data.logo_url as string;
    const html = Buffer.from("<html><script>alert(1)</script></html>".padEnd(64, " ")).toString("base64");
    const lying = await call("/api/v1/branding", { method: "PUT", body: { logo: { type: "image/png", data: html } } });
    expect(lying.status).toBe(400);
    expect(lying.body.error.message).toContain("not a PNG image");
    const jpegAsPng = await call("/api/v1/branding", {
      method: "PUT",
      body: { logo: { type: "image/jpeg", data: solidPng(8, 8, LOGO_RGB).toString("base64") } },
      headers: { "x-response-form": "B" },
    });
    expect([jpegAsPng.status, jpegAsPng.body.code]).toEqual([400, "VALIDATION_ERROR"]);
    const svg = await call("/api/v1/branding", {
      method: "PUT",
      body: { logo: { type: "image/svg+xml", data: Buffer.from("<svg/>").toString("base64") } },
    });
    expect(svg.status).toBe(400);
    expect(svg.body.error.message).toContain("image/png or image/jpeg");
    const big = Buffer.concat([solidPng(8, 8, LOGO_RGB), Buffer.alloc(300 * 1024)]).toString("base64");
    const tooBig = await call("/api/v1/branding", { method: "PUT", body: { logo: { type: "image/png", data: big } } });
    expect([400, 413]).toContain(tooBig.status);
    const empty = await call("/api/v1/branding", { method: "PUT", body: { agency_name: "   " } });
    expect(empty.status).toBe(400);
    expect((await call("/api/v1/branding")).body.data).toMatchObject({ agency_name: AGENCY, logo_url: stored });
  });

  it("makes the audit's PDF: agency, grade, scores and the issue rollup, with the logo on page one", async () => {
    const { response, bytes } = await pdfOf(`/api/v1/audits/${auditId}/report?format=pdf`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="audit-${auditId}-report.pdf"`);
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const { text, pages, image } = readPdf(bytes);
    expect(pages).toBeGreaterThanOrEqual(1);

    const view = (await call(`/api/v1/audits/${auditId}`)).body.data as Json;
    const rollup = (await call(`/api/v1/audits/${auditId}/issues`)).body.data as Json;
    const flat = text.replace(/[ \t]+/g, " ");
    expect(flat).toContain(AGENCY);
    expect(flat).toContain(`Site audit of ${site.url("/")}`);
    expect(flat).toMatch(new RegExp(`Grade\\s+${view.grade}\\b`));
    for (const [label, key] of [
      ["Overall", "overall"],
      ["SEO", "seo"],
      ["AEO", "aeo"],
      ["GEO", "geo"],
    ] as const)
      expect(flat).toMatch(new RegExp(`${label}\\s+${view.scores[key]} / 100`));
    expect(flat).toContain("4 pages judged");

    // every row of the rollup: its title, and on its line its page count and change
    const lines = text.split("\n").map((line) => line.replace(/\s+/g, " ").trim());
    const open = (rollup.issues as Json[]).filter((issue) => issue.state !== "fixed");
    expect(open.length).toBeGreaterThan(0);
    for (const issue of open) {
      const line = lines.find((candidate) => candidate.startsWith(issue.title.slice(0, 30)));
      expect(line).toBeDefined();
      const change = { new: "New", persisting: "Persisting" }[issue.state as "new" | "persisting"];
      expect(line).toMatch(new RegExp(`\\b${issue.pages}\\b.*${change}( \\(was \\d+\\))?$`));
    }
    // the planted defects, by name: /a's missing description persists; /c's missing title is new
    const byCheck = (check: string) => (rollup.issues as Json[]).find((issue) => issue.check === check) as Json;
    expect(byCheck("meta-description")).toMatchObject({ pages: 1, state: "persisting", previous_pages: 2 });
    expect(lines.find((line) => line.startsWith("Page has a meta description"))).toMatch(
      /1 25 % Persisting \(was 2\)$/,
    );
    expect(byCheck("title")).toMatchObject({ pages: 1, state: "new" });
    // fixed since the first audit: /c's h1, /b's description went from 2 pages to 1
    expect(flat).toContain("Fixed since the previous audit");
    for (const issue of (rollup.issues as Json[]).filter((row) => row.state === "fixed"))
      expect(flat).toContain(`${issue.title}: was on ${issue.previous_pages} page`);

    // the logo: its magenta on the rendered first page (240 × 60 px scaled into the letterhead)
    expect(pixelsNear(image, LOGO_RGB)).toBeGreaterThan(200);
  }, 60_000);

  it("serves the PDF by Accept as well, and refuses an audit under way with 409", async () => {
    const { response, bytes } = await pdfOf(`/api/v1/audits/${auditId}/report`, { accept: "application/pdf" });
    expect(response.status).toBe(200);
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const unknown = await pdfOf("/api/v1/audits/6f1f0c4e-7a43-4d1b-9a51-0c2f8c1e9d00/report?format=pdf");
    expect(unknown.response.status).toBe(404);
    expect(JSON.parse(unknown.bytes.toString("utf8")).error.code).toBe("not_found");
    round = 1;
    const started = await call(`/api/v1/sites/${siteId}/audits`, { body: { mode: "quick" } });
    const early = await pdfOf(`/api/v1/audits/${started.body.data.id}/report?format=pdf`);
    // completed in the meantime is possible on a fast machine; under way it is 409, never a PDF of half an audit
    if (early.response.status === 200) {
      const row = await stack.db.audit.findUniqueOrThrow({ where: { id: started.body.data.id } });
      expect(row.status).toBe("completed");
    } else {
      expect(early.response.status).toBe(409);
      expect(early.response.headers.get("retry-after")).not.toBeNull();
    }
    await eventually(
      async () =>
        (await stack.db.audit.findUniqueOrThrow({ where: { id: started.body.data.id } })).status === "completed",
      90_000,
      "the third audit to complete",
    );
  }, 120_000);

  it("makes a scan's PDF with its grade, scores and failing checks", async () => {
    const scanned = await call("/api/v1/scan", { body: { url: site.url("/a"), mode: "quick" } });
    expect(scanned.status).toBe(200);
    const scan = scanned.body.data as Json;
    const { response, bytes } = await pdfOf(`/api/v1/scan/${scan.id}?format=pdf`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="scan-${scan.id}.pdf"`);
    const { text, plain } = readPdf(bytes);
    const flat = text.replace(/\s+/g, " ");
    expect(flat).toContain(AGENCY);
    expect(flat).toContain(`Page report of ${site.url("/a")}`);
    expect(flat).toMatch(new RegExp(`Grade ${scan.grade}\\b`));
    expect(flat).toContain(`SEO ${scan.scores.seo} / 100`);
    const failing = (scan.checks as Json[]).find((check) => check.id === "meta-description");
    expect(failing?.status).toMatch(/fail|warn/);
    // each failing check by its title, in the issues table (its title wraps inside its column)
    expect(plain.replace(/\s+/g, " ")).toContain(failing?.title);
    // and its evidence grade, in the table's Evidence column
    expect(failing?.evidence?.grade).toBe("documented");
    expect(flat).toMatch(/\bEvidence\b/);
    expect(flat).toContain("Documented");
    expect(flat).toContain("Passed Page answers with a success status");
  }, 60_000);
});
