import { spawn } from "node:child_process";
import { copyFile, mkdtemp, readFile, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parse } from "yaml";
import { type FixtureServer, html, startFixtureServer, text } from "./support/fixture-server";
import { sarifProblems } from "./support/report-schemas";

/**
 * The GitHub Actions workflow and config file of docs/examples, as a pull request would run
 * them: the workflow's own scan command (read from the YAML), in the site's checkout with the
 * example .aeoscanrc.json, on a loopback preview that fails the gate and one that passes it.
 * The SARIF it leaves is what upload-sarif would send: valid, and located without a scheme.
 */

jest.setTimeout(300_000);

const ROOT = resolve(__dirname, "..");
const WORKFLOW = join(ROOT, "docs/examples/aeo-scan-preview.yml");
const CONFIG = join(ROOT, "docs/examples/.aeoscanrc.json");

const PARA =
  "Gating a pull request on a scan of its preview keeps regressions out of production: a missing title, a blocked crawler or a lost description is caught before it ships, while the change is still fresh in the author's mind and cheap to fix. ";

/** A page that does well on all three areas, so that the example gate lets it through. */
const GOOD = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Gating pull requests on a scan of their preview</title>
<meta name="description" content="Why and how to gate each pull request on a scan of its preview deployment: the assertions, the exit codes and the findings in code scanning.">
<meta name="author" content="Ada Example">
<link rel="canonical" href="PAGE_URL">
<meta property="og:title" content="Gating pull requests on a scan of their preview">
<meta property="og:description" content="Why and how to gate each pull request on a scan of its preview deployment.">
<meta property="og:type" content="article"><meta property="og:url" content="PAGE_URL">
<meta property="og:image" content="https://example.com/cover.png">
<meta name="twitter:card" content="summary_large_image">
<script type="application/ld+json">${JSON.stringify({
  "@context": "https://schema.org",
  "@graph": [
    {
      "@type": "Organization",
      "@id": "#org",
      name: "Example Docs",
      url: "https://example.com/",
      logo: "https://example.com/logo.png",
      sameAs: [
        "https://www.wikidata.org/wiki/Q42",
        "https://www.linkedin.com/company/example",
        "https://github.com/example",
      ],
    },
    {
      "@type": "Article",
      headline: "Gating pull requests on a scan of their preview",
      author: { "@type": "Person", name: "Ada Example", url: "https://example.com/ada" },
      publisher: { "@id": "#org" },
      datePublished: new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10),
      dateModified: new Date(Date.now() - 86_400_000).toISOString().slice(0, 10),
      image: "https://example.com/cover.png",
    },
    {
      "@type": "FAQPage",
      mainEntity: [
        {
          "@type": "Question",
          name: "What does the gate check?",
          acceptedAnswer: { "@type": "Answer", text: "The scores, the grade and the checks named in .aeoscanrc.json." },
        },
      ],
    },
    {
      "@type": "BreadcrumbList",
      itemListElement: [
        { "@type": "ListItem", position: 1, name: "Docs", item: "https://example.com/docs" },
        { "@type": "ListItem", position: 2, name: "Gating", item: "https://example.com/docs/gating" },
      ],
    },
  ],
})}</script>
</head><body><header><nav><a href="/about">About us</a> <a href="/contact">Contact</a></nav></header>
<main><article><h1>Gating pull requests on a scan of their preview</h1>
<p>By <a rel="author" href="/ada">Ada Example</a>, <time datetime="2025-01-15">15 January 2025</time>.</p>
<p>In short: scan each preview, fail the pull request when an error-level assertion fails, and upload the findings to code scanning. ${PARA}</p>
<h2 id="why">Why gate on the preview?</h2>
<p>${PARA.repeat(3)}In our measurements 42% of regressions were caught this way, and fixing one took 15 minutes on average instead of 2 hours.</p>
<blockquote cite="https://example.com/study"><p>"A check that runs before merge is worth ten audits after release."</p><footer>— Grace Example, in <cite>The Release Study</cite></footer></blockquote>
<h2 id="how">How does the gate work?</h2>
<p>${PARA.repeat(2)}See the <a href="https://developer.mozilla.org/en-US/docs/Web/HTML">HTML reference</a> and <a href="https://www.w3.org/TR/html52/">the W3C specification</a> for the markup the checks read.</p>
<ol><li>Deploy the preview.</li><li>Scan it with the assertions of the repository.</li><li>Upload the SARIF findings.</li></ol>
<h3 id="exit-codes">Which exit codes does it use?</h3>
<table><thead><tr><th>Code</th><th>Meaning</th></tr></thead><tbody><tr><td>0</td><td>passed</td></tr><tr><td>1</td><td>an error assertion failed</td></tr><tr><td>3</td><td>no result</td></tr></tbody></table>
<h2 id="faq">What does the gate check?</h2>
<p>The scores, the grade and the checks named in .aeoscanrc.json. ${PARA.repeat(2)}</p>
</article></main><footer><a href="/about">About</a> · <a href="/contact">Contact</a></footer></body></html>`;

const BAD = `<!doctype html><html lang="en"><head><meta charset="utf-8"></head>
<body><main><p>No title, no description: the gate fails it.</p></main></body></html>`;

type Step = { name?: string; run?: string; uses?: string; if?: string; with?: Record<string, unknown> };
type Workflow = {
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  jobs: { scan: { env: Record<string, string>; steps: Step[] } };
};

/** Runs a workflow step's shell command as the runner would: bash, in the checkout, with the job's environment. */
const runStep = (command: string, cwd: string, env: Record<string, string>) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
    const child = spawn("bash", ["-e", "-c", command], {
      cwd,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("close", (code) => done({ code, stdout, stderr }));
  });

describe("the example GitHub Actions workflow", () => {
  let workflow: Workflow;
  let site: FixtureServer;
  let checkout: string;

  beforeAll(async () => {
    workflow = parse(await readFile(WORKFLOW, "utf8")) as Workflow;
    site = await startFixtureServer({
      "/good": (req, res) => html(GOOD.replaceAll("PAGE_URL", `http://${req.headers.host}/good`))(req, res),
      "/sitemap.xml": (req, res) => {
        res
          .writeHead(200, { "content-type": "application/xml" })
          .end(
            `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://${req.headers.host}/good</loc></url></urlset>`,
          );
      },
      "/bad": html(BAD),
      "/robots.txt": (req, res) =>
        text(`User-agent: *\nAllow: /\nSitemap: http://${req.headers.host}/sitemap.xml\n`)(req, res),
      "/llms.txt": text("# Preview\n\n> A preview deployment.\n\n## Pages\n\n- [Good](/good): the page\n"),
    });
    // the site's checkout: its config file, and aeo-scan checked out beside it as .aeo-scan
    checkout = await mkdtemp(join(tmpdir(), "site-checkout-"));
    await copyFile(CONFIG, join(checkout, ".aeoscanrc.json"));
    await symlink(ROOT, join(checkout, ".aeo-scan"));
  });

  afterAll(async () => {
    await site?.close();
    await rm(checkout, { recursive: true, force: true });
  });

  const step = (name: string): Step => {
    const found = workflow.jobs.scan.steps.find((candidate) => candidate.name === name);
    if (!found) throw new Error(`no step "${name}"`);
    return found;
  };

  it("runs on pull requests with the permissions upload-sarif needs", () => {
    expect(Object.keys(workflow.on)).toEqual(["pull_request"]);
    expect(workflow.permissions).toMatchObject({ "security-events": "write", contents: "read" });
    const upload = step("Upload the findings to code scanning");
    expect(upload.uses).toMatch(/^github\/codeql-action\/upload-sarif@v\d+$/);
    expect(upload.with).toMatchObject({ sarif_file: "aeo-scan.sarif" });
    // the findings are uploaded when the gate fails too
    expect(upload.if).toContain("!cancelled()");
  });

  it.each([
    ["/bad", 1],
    ["/good", 0],
  ])("its scan step gates a preview at %s (exit %i) and leaves SARIF that GitHub accepts", async (path, code) => {
    const command = step("Scan and gate").run ?? "";
    expect(command).toContain(".aeo-scan/packages/cli/bin/scan.cjs");
    // in-process, as on a runner without SCAN_API_URL; the loopback preview needs the allowlist
    const result = await runStep(command, checkout, {
      PREVIEW_URL: site.url(path),
      SCAN_ALLOWLIST: site.hostPort,
    });
    expect(result.stderr).toContain("Assertions:");
    expect([result.code, result.stderr]).toEqual([code, result.stderr]);
    if (code === 1) {
      expect(result.stderr).toMatch(/error {2}title\s+check title: fail/);
      expect(result.stderr).toMatch(/error {2}meta-description\s+check meta-description: fail/);
    }
    expect(result.stdout).toMatch(/^Scan of /);
    const log = JSON.parse(await readFile(join(checkout, "aeo-scan.sarif"), "utf8"));
    expect(sarifProblems(log)).toEqual([]);
    for (const result of log.runs[0].results) {
      expect(result.locations[0].physicalLocation.artifactLocation.uri).toBe(`./${site.hostPort}${path}`);
    }
  });
});
