/**
 * Structural measures of the code at any commit, read from git (no checkout, no install):
 * `pnpm exec tsx scripts/arch-metrics.ts [--rev <commit>] [--json]`.
 *
 * - which source files write each kind of row: Prisma writes (`.scan.update(`, `.auditPage.createMany(`…)
 *   and raw SQL `INSERT INTO` / `UPDATE` / `DELETE FROM` on the model's table, the models and tables
 *   read from that commit's prisma/schema.prisma;
 * - how many places declare each endpoint: the quoted path (`/api/v1/scan/:id` or `/api/v1/scan/{id}`)
 *   in the gateway's source, one place per file and line, for every `route({ method, path })`;
 * - counts of a few written-out patterns (inline status lists, hand-normalised ids, hand-built
 *   envelopes, service types inferred from factories);
 * - the names each package's entry modules export (its `exports` map, `export *` followed);
 * - the largest source files.
 *
 * "Source" is `packages/<name>/src` and `services/<name>/src`, TypeScript, without tests
 * (`*.test.ts`, `*.spec.ts`) and without generated files (a `generated/` folder, or a header
 * that says "generated" and "do not edit"). The counts are textual: a write spelled through
 * a variable holding the model (`const m = db.scan; m.update(…)`) or a nested Prisma write is
 * not seen.
 */
import { execFileSync } from "node:child_process";
import { dirname, join, normalize } from "node:path";
import { parseArgs } from "node:util";

export type Files = Map<string, string>;

/** Every file of `rev` whose path passes `keep`, with its text, read in one `git cat-file --batch`. */
export const readTree = (rev: string, keep: (path: string) => boolean, cwd = process.cwd()): Files => {
  const listing = execFileSync("git", ["ls-tree", "-r", "-z", rev], { cwd, encoding: "utf8", maxBuffer: 1 << 28 });
  const paths: string[] = [];
  for (const entry of listing.split("\0")) {
    const tab = entry.indexOf("\t");
    if (tab < 0 || !entry.includes(" blob ")) continue;
    const path = entry.slice(tab + 1);
    if (keep(path)) paths.push(path);
  }
  const out = execFileSync("git", ["cat-file", "--batch"], {
    cwd,
    input: paths.map((path) => `${rev}:${path}`).join("\n"),
    maxBuffer: 1 << 30,
  });
  const files: Files = new Map();
  let at = 0;
  for (const path of paths) {
    const newline = out.indexOf(10, at);
    const header = out.subarray(at, newline).toString("utf8");
    const size = Number(header.split(" ")[2]);
    files.set(path, out.subarray(newline + 1, newline + 1 + size).toString("utf8"));
    at = newline + 1 + size + 1;
  }
  return files;
};

const isTest = (path: string) => /\.(test|spec)\.tsx?$/.test(path) || /(^|\/)(__tests__|tests?)\//.test(path);

export const isGenerated = (path: string, text: string) => {
  if (path.includes("/generated/")) return true;
  // the file's leading comment, not a string further down that writes such a header
  const header = (/^\s*(\/\*[\s\S]*?\*\/|(?:\/\/.*\n)+)/.exec(text)?.[1] ?? "").toLowerCase();
  return header.includes("generated") && header.includes("do not edit");
};

/** Hand-written TypeScript of the packages and services. */
export const isSource = (path: string) =>
  /^(packages|services)\/[^/]+\/src\/.*\.tsx?$/.test(path) && !isTest(path) && !path.endsWith(".d.ts");

export interface Model {
  name: string;
  /** the camel-case name Prisma's client gives it: `AuditPage` → `auditPage` */
  client: string;
  table: string;
}

/** The models of a Prisma schema with their tables (`@@map`, else the model's name). */
export const modelsOf = (schema: string): Model[] => {
  const models: Model[] = [];
  for (const match of schema.matchAll(/^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm)) {
    const name = match[1] as string;
    const table = /@@map\("([^"]+)"\)/.exec(match[2] as string)?.[1] ?? name;
    models.push({ name, client: name[0]?.toLowerCase() + name.slice(1), table });
  }
  return models;
};

const WRITE_METHODS = [
  "createManyAndReturn",
  "createMany",
  "create",
  "updateManyAndReturn",
  "updateMany",
  "update",
  "upsert",
  "deleteMany",
  "delete",
].join("|");

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** How many writes to `model`'s rows `text` spells out: Prisma calls and raw SQL. */
export const writesTo = (model: Model, text: string): number => {
  const prisma = new RegExp(`\\.${literal(model.client)}\\s*\\.(?:${WRITE_METHODS})\\s*\\(`, "g");
  const sql = new RegExp(`\\b(?:INSERT\\s+INTO|UPDATE|DELETE\\s+FROM)\\s+"?${literal(model.table)}"?(?![\\w])`, "g");
  return (text.match(prisma)?.length ?? 0) + (text.match(sql)?.length ?? 0);
};

export interface Endpoint {
  method: string;
  path: string;
  /** file:line of every place that names the path */
  places: string[];
}

/**
 * Every endpoint a `route({ method, path })` declares, with the places in the gateway that name it:
 * its route declaration, a key of the OpenAPI paths object (`"/api/v1/scan/{id}": {`), a table
 * keyed by method and path (`"GET /api/v1/scan/:id"`), or the path alone as a string. A mention in
 * prose (inside a description, between backquotes) is not a declaration, nor is another method's
 * route on the same path.
 */
export const endpointsOf = (files: Files): Endpoint[] => {
  const seen = new Map<string, Endpoint>();
  /** "file:line" of each route declaration's path, with its method */
  const routeLines = new Map<string, string>();
  for (const [path, text] of files) {
    if (!path.startsWith("services/gateway/src/")) continue;
    for (const match of text.matchAll(/method:\s*"(\w+)",\s*path:\s*"([^"]+)"/g)) {
      const method = (match[1] as string).toUpperCase();
      const key = `${method} ${match[2]}`;
      if (!seen.has(key)) seen.set(key, { method, path: match[2] as string, places: [] });
      const line = text.slice(0, (match.index ?? 0) + match[0].length).split("\n").length;
      routeLines.set(`${path}:${line}`, method);
    }
  }
  for (const endpoint of seen.values()) {
    const templated = endpoint.path.replace(/:(\w+)/g, "{$1}");
    const named = new RegExp(
      `["'](?:${endpoint.method} )?(?:${literal(endpoint.path)}|${literal(templated)})["']`,
      "i",
    );
    for (const [path, text] of files) {
      if (!path.startsWith("services/gateway/src/")) continue;
      text.split("\n").forEach((line, index) => {
        const place = `${path}:${index + 1}`;
        const routeMethod = routeLines.get(place);
        if (routeMethod !== undefined && routeMethod !== endpoint.method) return;
        if (named.test(line)) endpoint.places.push(place);
      });
    }
  }
  return [...seen.values()].sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));
};

export const PATTERNS: Record<string, RegExp> = {
  "inline `status: { in: [...] }`": /status:\s*\{\s*in:\s*\[/g,
  "`params.id.toLowerCase()`": /params\.id\.toLowerCase\(\)/g,
  "`successBody(`": /\bsuccessBody\(/g,
  "`ReturnType<typeof create`": /ReturnType<typeof create/g,
};

export const countPattern = (files: Files, pattern: RegExp) => {
  let total = 0;
  const perFile: Record<string, number> = {};
  for (const [path, text] of files) {
    const count = text.match(pattern)?.length ?? 0;
    if (count > 0) {
      perFile[path] = count;
      total += count;
    }
  }
  return { total, perFile };
};

/** The names a module exports, following `export * from` (and counting `export * as ns` as one name). */
export const exportedNames = (files: Files, module: string, visiting = new Set<string>()): Set<string> => {
  const names = new Set<string>();
  const text = files.get(module);
  if (text === undefined || visiting.has(module)) return names;
  visiting.add(module);
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  for (const match of code.matchAll(
    /^export\s+(?:declare\s+)?(?:default\s+)?(?:async\s+)?(?:const|let|var|function\*?|class|type|interface|enum|abstract\s+class)\s+(\w+)/gm,
  ))
    names.add(match[1] as string);
  for (const match of code.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}/gm)) {
    for (const part of (match[1] as string).split(",")) {
      const name = part
        .trim()
        .replace(/^type\s+/, "")
        .split(/\s+as\s+/)
        .pop()
        ?.trim();
      if (name) names.add(name);
    }
  }
  for (const match of code.matchAll(/^export\s+\*\s+as\s+(\w+)/gm)) names.add(match[1] as string);
  for (const match of code.matchAll(/^export\s+\*\s+from\s+["']([^"']+)["']/gm)) {
    const target = resolveModule(files, dirname(module), match[1] as string);
    if (target) for (const name of exportedNames(files, target, visiting)) names.add(name);
  }
  return names;
};

const resolveModule = (files: Files, from: string, specifier: string): string | undefined => {
  if (!specifier.startsWith(".")) return undefined;
  const base = normalize(join(from, specifier)).replace(/\.js$/, "");
  return [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((candidate) => files.has(candidate));
};

export interface PackageSurface {
  name: string;
  entries: string[];
  names: number;
}

/** Each package's public names: every module its `exports` map (or `main`) names. */
export const surfacesOf = (files: Files): PackageSurface[] => {
  const surfaces: PackageSurface[] = [];
  for (const [path, text] of files) {
    const match = /^packages\/([^/]+)\/package\.json$/.exec(path);
    if (!match) continue;
    const manifest = JSON.parse(text) as { name: string; exports?: unknown; main?: string };
    const targets: string[] = [];
    const collect = (value: unknown) => {
      if (typeof value === "string") targets.push(value);
      else if (value && typeof value === "object") for (const inner of Object.values(value)) collect(inner);
    };
    collect(manifest.exports ?? manifest.main ?? "./src/index.ts");
    const entries = [
      ...new Set(
        targets
          .map((target) => normalize(join("packages", match[1] as string, target)))
          .filter((entry) => files.has(entry)),
      ),
    ];
    const names = new Set<string>();
    for (const entry of entries) for (const name of exportedNames(files, entry)) names.add(`${entry}#${name}`);
    surfaces.push({ name: manifest.name, entries, names: names.size });
  }
  return surfaces.sort((a, b) => a.name.localeCompare(b.name));
};

export interface Metrics {
  rev: string;
  sourceFiles: number;
  sourceLines: number;
  writes: Record<string, { table: string; files: Record<string, number> }>;
  endpoints: Endpoint[];
  patterns: Record<string, { total: number; perFile: Record<string, number> }>;
  surfaces: PackageSurface[];
  largest: { path: string; lines: number }[];
  /** source files past 300 lines (the style guide's "two files") */
  over300: number;
}

const linesOf = (text: string) => text.split("\n").length - (text.endsWith("\n") ? 1 : 0);

export const measure = (rev: string, cwd = process.cwd()): Metrics => {
  const tree = readTree(
    rev,
    (path) =>
      isSource(path) ||
      path === "prisma/schema.prisma" ||
      /^packages\/[^/]+\/(package\.json|src\/.*\.tsx?)$/.test(path),
    cwd,
  );
  const source: Files = new Map([...tree].filter(([path, text]) => isSource(path) && !isGenerated(path, text)));
  const writes: Metrics["writes"] = {};
  for (const model of modelsOf(tree.get("prisma/schema.prisma") ?? "")) {
    const perFile: Record<string, number> = {};
    for (const [path, text] of source) {
      const count = writesTo(model, text);
      if (count > 0) perFile[path] = count;
    }
    writes[model.name] = { table: model.table, files: perFile };
  }
  const patterns: Metrics["patterns"] = {};
  for (const [label, pattern] of Object.entries(PATTERNS)) patterns[label] = countPattern(source, pattern);
  const sized = [...source].map(([path, text]) => ({ path, lines: linesOf(text) }));
  return {
    rev: execFileSync("git", ["rev-parse", "--short", rev], { cwd, encoding: "utf8" }).trim(),
    sourceFiles: source.size,
    sourceLines: sized.reduce((sum, file) => sum + file.lines, 0),
    writes,
    endpoints: endpointsOf(source),
    patterns,
    surfaces: surfacesOf(tree),
    over300: sized.filter((file) => file.lines > 300).length,
    largest: sized.sort((a, b) => b.lines - a.lines).slice(0, 10),
  };
};

export const renderMarkdown = (metrics: Metrics): string => {
  const out: string[] = [`# Structural measures at ${metrics.rev}`, ""];
  out.push(
    `${metrics.sourceFiles} source files, ${metrics.sourceLines} lines (tests and generated files left out).`,
    "",
  );
  out.push("## Files writing each kind of row", "", "| model (table) | files | writes | files |", "|---|---|---|---|");
  for (const [name, { table, files }] of Object.entries(metrics.writes)) {
    const entries = Object.entries(files);
    const total = entries.reduce((sum, [, count]) => sum + count, 0);
    out.push(
      `| ${name} (\`${table}\`) | ${entries.length} | ${total} | ${entries.map(([path, count]) => `${path} (${count})`).join(", ")} |`,
    );
  }
  const declared = metrics.endpoints.map((endpoint) => endpoint.places.length);
  const total = declared.reduce((sum, count) => sum + count, 0);
  out.push(
    "",
    "## Declarations per endpoint",
    "",
    `${metrics.endpoints.length} endpoints, ${total} places naming their paths (mean ${(total / Math.max(1, declared.length)).toFixed(2)}, ` +
      `${declared.filter((count) => count > 1).length} named in more than one place, at most ${Math.max(0, ...declared)}).`,
    "",
    "| endpoint | places |",
    "|---|---|",
    ...metrics.endpoints.map((endpoint) => `| ${endpoint.method} ${endpoint.path} | ${endpoint.places.join(", ")} |`),
  );
  out.push("", "## Written-out patterns", "", "| pattern | count | files |", "|---|---|---|");
  for (const [label, { total: count, perFile }] of Object.entries(metrics.patterns))
    out.push(`| ${label} | ${count} | ${Object.keys(perFile).length} |`);
  out.push("", "## Names each package exports", "", "| package | entry modules | names |", "|---|---|---|");
  for (const surface of metrics.surfaces)
    out.push(`| ${surface.name} | ${surface.entries.length} | ${surface.names} |`);
  out.push(
    "",
    "## Largest source files",
    "",
    `${metrics.over300} source files pass 300 lines.`,
    "",
    "| file | lines |",
    "|---|---|",
  );
  for (const file of metrics.largest) out.push(`| ${file.path} | ${file.lines} |`);
  return `${out.join("\n")}\n`;
};

if (require.main === module) {
  const { values } = parseArgs({ options: { rev: { type: "string", default: "HEAD" }, json: { type: "boolean" } } });
  const metrics = measure(values.rev as string);
  process.stdout.write(values.json ? `${JSON.stringify(metrics, null, 1)}\n` : renderMarkdown(metrics));
}
