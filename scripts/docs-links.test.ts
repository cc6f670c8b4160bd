import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { anchorsOf, documentationFiles, findBrokenLinks, githubSlug, linksOf, PENDING_PAGES } from "./docs-links";

const ROOT = resolve(__dirname, "..");

describe("the README and docs/", () => {
  it("have no relative link to a missing file or heading", () => {
    const files = documentationFiles(ROOT);
    expect(files).toEqual(expect.arrayContaining(["README.md", "docs/README.md", "docs/api.md"]));
    expect(findBrokenLinks(ROOT, files, PENDING_PAGES)).toEqual([]);
  });

  it("list as pending only pages that do not exist yet (remove an entry once its page is written)", () => {
    const written = PENDING_PAGES.filter((page) => documentationFiles(ROOT).includes(page));
    expect(written).toEqual([]);
  });
});

describe("githubSlug", () => {
  it.each([
    ["`POST /api/v1/scan`", "post-apiv1scan"],
    ["`fixes`: llms.txt, JSON-LD, robots.txt", "fixes-llmstxt-json-ld-robotstxt"],
    ["API reference: `/openapi.json` and `/docs`", "api-reference-openapijson-and-docs"],
    ["4.7 API key management (Form B)", "47-api-key-management-form-b"],
    ["2.7 Evaluation input and output (AEO 2.0 evaluator)", "27-evaluation-input-and-output-aeo-20-evaluator"],
    ["Chromium's sandbox", "chromiums-sandbox"],
    ["a — b", "a--b"],
    ["snake_case and **bold** [linked](x.md)", "snake_case-and-bold-linked"],
    ["Überblick", "überblick"],
    ["`scan audit <url>`", "scan-audit-url"],
    ['Notes <a id="x"></a>', "notes"],
  ])("%s → %s", (heading, slug) => {
    expect(githubSlug(heading)).toBe(slug);
  });
});

describe("anchorsOf and linksOf", () => {
  const page = [
    "# Title",
    "## Errors",
    "## Errors",
    "```sh",
    "## not a heading [nor](a-link.md)",
    "```",
    '<a id="custom"></a>',
    'See [the errors](#errors), `[code](ignored.md)`, ![a picture](img/p.png "title") and',
    "[an outside page](https://example.com/x.md).",
    "[ref]: other.md#part",
  ].join("\n");

  it("numbers repeated headings and ignores fenced code", () => {
    expect([...anchorsOf(page)].sort()).toEqual(["custom", "errors", "errors-1", "title"]);
  });

  it("finds inline links, images and reference definitions outside code", () => {
    expect(linksOf(page)).toEqual([
      { target: "#errors", line: 8 },
      { target: "img/p.png", line: 8 },
      { target: "https://example.com/x.md", line: 9 },
      { target: "other.md#part", line: 10 },
    ]);
  });
});

describe("findBrokenLinks", () => {
  let root: string;
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "docs-links-"));
    write("docs/api.md", "# API\n\n## `GET /api/v1/scan/:id`\n\nSee [keys](keys.md#rate-limits).\n");
    write("docs/keys.md", "# Keys\n\n## Rate limits\n");
    write("src/main.ts", "export {};\n");
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("passes links to files, headings, directories and source lines that exist", () => {
    write(
      "README.md",
      "[api](docs/api.md#get-apiv1scanid) [dir](docs/) [code](src/main.ts#L1) [self](#top) [site](https://x.test/#nope)\n\n# Top\n",
    );
    expect(findBrokenLinks(root, ["README.md", "docs/api.md", "docs/keys.md"])).toEqual([]);
  });

  it("reports a missing file, a missing anchor, a missing own anchor and a path outside the repository", () => {
    write(
      "README.md",
      "# Top\n[a](docs/gone.md)\n[b](docs/keys.md#quota)\n[c](#bottom)\n[d](../elsewhere.md)\n[e](docs/keys.md#Rate-Limits)\n",
    );
    expect(findBrokenLinks(root, ["README.md"])).toEqual([
      { file: "README.md", line: 2, target: "docs/gone.md", problem: "no such file: docs/gone.md" },
      {
        file: "README.md",
        line: 3,
        target: "docs/keys.md#quota",
        problem: "no heading with anchor #quota in docs/keys.md",
      },
      { file: "README.md", line: 4, target: "#bottom", problem: "no heading with anchor #bottom in README.md" },
      { file: "README.md", line: 5, target: "../elsewhere.md", problem: "points outside the repository" },
      {
        file: "README.md",
        line: 6,
        target: "docs/keys.md#Rate-Limits",
        problem: "no heading with anchor #Rate-Limits in docs/keys.md",
      },
    ]);
  });

  it("lets a pending page through while it does not exist, anchors included", () => {
    write("README.md", "[config](docs/configuration.md#ports)\n");
    expect(findBrokenLinks(root, ["README.md"], ["docs/configuration.md"])).toEqual([]);
    write("docs/configuration.md", "# Configuration\n");
    expect(findBrokenLinks(root, ["README.md"], ["docs/configuration.md"])).toEqual([
      {
        file: "README.md",
        line: 1,
        target: "docs/configuration.md#ports",
        problem: "no heading with anchor #ports in docs/configuration.md",
      },
    ]);
  });
});
