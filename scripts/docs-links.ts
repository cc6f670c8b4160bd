/**
 * Relative links in the README and docs/ that lead nowhere: a file that does not exist, or a
 * heading anchor the target page does not have (GitHub's anchors). Links to other sites are
 * not followed. `pnpm exec tsx scripts/docs-links.ts` lists them; scripts/docs-links.test.ts
 * fails on any.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

/** A link that leads nowhere, with where it is written. */
export type BrokenLink = { file: string; line: number; target: string; problem: string };

/**
 * GitHub's anchor for a heading's text (github-slugger): markup dropped, lower-cased, every
 * character that is not a letter, mark, digit, `_`, `-` or space removed, each space a hyphen.
 * Spaces are not collapsed: "a — b" is `a--b`, as on GitHub.
 */
export const githubSlug = (heading: string): string =>
  heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    // an HTML tag is dropped, but "<url>" in a code span is text: GitHub keeps its letters ("scan audit <url>" → scan-audit-url)
    .split(/(`[^`]*`)/)
    .map((part) => (part.startsWith("`") ? part : part.replace(/<[^>]+>/g, "")))
    .join("")
    .replace(/[`*]/g, "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "")
    .replace(/ /g, "-");

/** The lines of a markdown text outside fenced code blocks, with their 1-based numbers. */
const proseLines = (markdown: string): Array<{ text: string; line: number }> => {
  const lines: Array<{ text: string; line: number }> = [];
  let fence: string | null = null;
  markdown.split("\n").forEach((text, index) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(text)?.[1];
    if (fence === null && marker) fence = marker;
    else if (fence !== null && marker?.startsWith(fence[0] ?? "") && marker.length >= fence.length) fence = null;
    else if (fence === null) lines.push({ text, line: index + 1 });
  });
  return lines;
};

/**
 * The anchors a page offers: one per ATX heading (`## Title`), a repeated slug numbered `-1`,
 * `-2`... as GitHub does, plus explicit `<a id>` / `<a name>` anchors. Setext headings
 * (underlined with === or ---) are not used in these docs and are not read.
 */
export const anchorsOf = (markdown: string): Set<string> => {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text } of proseLines(markdown)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(text)?.[1];
    if (heading !== undefined) {
      const slug = githubSlug(heading);
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const match of text.matchAll(/<a\s[^>]*\b(?:id|name)\s*=\s*["']([^"']+)["']/gi)) {
      if (match[1]) anchors.add(match[1]);
    }
  }
  return anchors;
};

/** Every link target written in a page, outside code: inline links and images, and reference definitions. */
export const linksOf = (markdown: string): Array<{ target: string; line: number }> => {
  const links: Array<{ target: string; line: number }> = [];
  for (const { text, line } of proseLines(markdown)) {
    const prose = text.replace(/(`+)[\s\S]*?\1/g, "");
    for (const match of prose.matchAll(/\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g)) {
      if (match[1]) links.push({ target: match[1].replace(/^<(.*)>$/, "$1"), line });
    }
    const definition = /^ {0,3}\[[^\]]+\]:\s*(\S+)/.exec(prose)?.[1];
    if (definition) links.push({ target: definition.replace(/^<(.*)>$/, "$1"), line });
  }
  return links;
};

/** A link to another site or scheme, which this check does not follow. */
const isExternal = (target: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//");

const isFile = (path: string): boolean => existsSync(path) && statSync(path).isFile();

/**
 * The broken relative links of the given markdown files (paths relative to `root`). `pending`
 * names pages (relative to `root`) that are planned but not written yet: links to them, and
 * to their anchors, are let through while they do not exist.
 */
export const findBrokenLinks = (root: string, files: string[], pending: string[] = []): BrokenLink[] => {
  const broken: BrokenLink[] = [];
  const anchorCache = new Map<string, Set<string>>();
  const anchors = (path: string): Set<string> => {
    let found = anchorCache.get(path);
    if (!found) {
      found = anchorsOf(readFileSync(path, "utf8"));
      anchorCache.set(path, found);
    }
    return found;
  };
  const pendingPaths = new Set(pending.map((page) => resolve(root, page)));

  for (const file of files) {
    const source = resolve(root, file);
    for (const { target, line } of linksOf(readFileSync(source, "utf8"))) {
      if (isExternal(target)) continue;
      const report = (problem: string) => broken.push({ file, line, target, problem });
      const hashAt = target.indexOf("#");
      const pathPart = hashAt === -1 ? target : target.slice(0, hashAt);
      const fragment = hashAt === -1 ? null : target.slice(hashAt + 1);
      let decodedPath: string;
      let decodedFragment: string | null;
      try {
        decodedPath = decodeURIComponent(pathPart);
        decodedFragment = fragment === null ? null : decodeURIComponent(fragment);
      } catch {
        report("is not valid percent-encoding");
        continue;
      }
      const path = decodedPath === "" ? source : resolve(dirname(source), decodedPath);
      const inside = relative(root, path);
      if (inside.startsWith(`..${sep}`) || inside === "..") {
        report("points outside the repository");
        continue;
      }
      if (!existsSync(path)) {
        if (!pendingPaths.has(path)) report(`no such file: ${inside}`);
        continue;
      }
      if (decodedFragment === null || decodedFragment === "") continue;
      // GitHub's line anchors (#L10) on source files are not headings: only pages are checked
      if (!isFile(path) || !path.endsWith(".md")) continue;
      if (!anchors(path).has(decodedFragment)) report(`no heading with anchor #${decodedFragment} in ${inside}`);
    }
  }
  return broken;
};

/** README.md and every markdown file under docs/, relative to `root`. */
export const documentationFiles = (root: string): string[] => {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".md")) found.push(path);
    }
  };
  if (existsSync(join(root, "docs"))) walk("docs");
  return ["README.md", ...found.sort()];
};

/** Pages the docs already link to that are written by later changes; remove each once it exists. */
export const PENDING_PAGES: string[] = [];

if (require.main === module) {
  const root = resolve(__dirname, "..");
  const broken = findBrokenLinks(root, documentationFiles(root), PENDING_PAGES);
  for (const link of broken) process.stdout.write(`${link.file}:${link.line}: ${link.target}: ${link.problem}\n`);
  process.exitCode = broken.length > 0 ? 1 : 0;
}
