import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, posix, relative, resolve } from "node:path";

/**
 * The workspace's import boundaries: libraries never import programs, and a package is
 * entered only through what its exports map offers. Both break the build here.
 */
const ROOT = resolve(__dirname, "..");

type Workspace = { name: string; dir: string; kind: "package" | "service"; exports: string[] };

const workspaces: Workspace[] = ["packages", "services"].flatMap((group) =>
  readdirSync(join(ROOT, group))
    .filter((name) => existsSync(join(ROOT, group, name, "package.json")))
    .map((name) => {
      const manifest = JSON.parse(readFileSync(join(ROOT, group, name, "package.json"), "utf8"));
      return {
        name: manifest.name as string,
        dir: `${group}/${name}`,
        kind: group === "packages" ? ("package" as const) : ("service" as const),
        exports: Object.keys((manifest.exports ?? {}) as Record<string, string>),
      };
    }),
);

const sourceFiles = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory())
      return entry.name === "node_modules" || entry.name === "generated" ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });

const SPECIFIER = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+|\brequire\(\s*)["']([^"']+)["']/g;

const specifiersOf = (source: string): string[] => [...source.matchAll(SPECIFIER)].map((m) => m[1] ?? "");

const workspaceOf = (path: string): Workspace | undefined =>
  workspaces.find((workspace) => path === workspace.dir || path.startsWith(`${workspace.dir}/`));

/** What is wrong with one import of one file, or null. Paths are relative to the repository. */
const boundaryProblem = (file: string, specifier: string): string | null => {
  const from = workspaceOf(file);
  if (specifier.startsWith(".")) {
    const target = posix.normalize(posix.join(posix.dirname(file), specifier));
    const into = workspaceOf(target);
    if (into && into !== from) return `reaches into ${into.name} by a relative path; import "${into.name}"`;
    return null;
  }
  const match = specifier.match(/^(@scan\/[^/]+)(\/.*)?$/);
  if (!match) return null;
  const target = workspaces.find((workspace) => workspace.name === match[1]);
  if (!target) return `imports ${match[1]}, which is no workspace package`;
  if (from?.kind === "package" && target.kind === "service")
    return `a library imports the program ${target.name}; move what both need into a package`;
  if (from === target) return `imports its own package by name; use a relative path`;
  const subpath = `.${match[2] ?? ""}`;
  if (!target.exports.includes(subpath))
    return `imports ${specifier}, which ${target.name}'s exports map does not offer (${target.exports.join(", ") || "none"})`;
  return null;
};

/**
 * A service laid out by feature: each feature is a folder whose index.ts is its surface. A
 * feature imports another only through that index, and the plumbing folders (requests, the
 * callers' access) import no feature (their tests may, to make what they check), so a feature's insides can change without the others.
 */
const FEATURE_LAYOUTS: { root: string; features: string[]; plumbing: string[] }[] = [
  {
    root: "services/gateway/src",
    features: ["scans", "audits", "sites", "auth", "keys", "workspaces", "mcp", "generators", "ops"],
    plumbing: ["http", "access"],
  },
];

/** What is wrong with one relative import inside a service laid out by feature, or null. */
const featureProblem = (file: string, specifier: string): string | null => {
  if (!specifier.startsWith(".")) return null;
  const layout = FEATURE_LAYOUTS.find(({ root }) => file.startsWith(`${root}/`));
  if (!layout) return null;
  const folderOf = (path: string): { folder: string; rest: string } | undefined => {
    const rel = posix.relative(layout.root, path);
    if (rel.startsWith("..")) return undefined;
    const [folder = "", ...rest] = rel.split("/");
    return { folder, rest: rest.join("/") };
  };
  const from = folderOf(file)?.folder;
  const target = folderOf(posix.normalize(posix.join(posix.dirname(file), specifier)));
  if (!target || !layout.features.includes(target.folder) || target.folder === from) return null;
  if (from !== undefined && layout.plumbing.includes(from) && !file.endsWith(".test.ts"))
    return `${from}/ is plumbing and imports the feature ${target.folder}; move what both need into ${from}/`;
  if (target.rest !== "" && target.rest !== "index")
    return `reaches into the feature ${target.folder} past its index.ts; export what is needed there`;
  return null;
};

describe("workspace boundaries", () => {
  const files = ["packages", "services", "tests", "scripts"].flatMap(sourceFiles);

  it("finds the workspace's packages and source files", () => {
    expect(workspaces.map((w) => w.name)).toEqual(expect.arrayContaining(["@scan/scanner", "@scan/worker"]));
    expect(files.length).toBeGreaterThan(300);
  });

  it("flags the imports it exists to refuse", () => {
    expect(boundaryProblem("packages/cli/src/main.ts", "@scan/worker")).toMatch(/library imports the program/);
    expect(boundaryProblem("packages/cli/src/main.ts", "../../../services/worker/src/worker")).toMatch(/relative path/);
    expect(boundaryProblem("tests/x.test.ts", "@scan/scanner/http-fetch")).toMatch(/exports map does not offer/);
    expect(boundaryProblem("tests/x.test.ts", "../packages/scanner/src/http-fetch")).toMatch(/relative path/);
    expect(boundaryProblem("services/worker/src/main.ts", "@scan/worker")).toMatch(/its own package/);
    expect(boundaryProblem("services/worker/src/main.ts", "@scan/scanner")).toBeNull();
    expect(boundaryProblem("packages/generators/src/fixture-pages.ts", "@scan/checks/testing")).toBeNull();
    expect(boundaryProblem("services/worker/src/jobs/scan.job.ts", "../domain/site-scores")).toBeNull();
  });

  it("no package imports a service, and every import across packages goes through a public entry", () => {
    const problems = files.flatMap((file) =>
      specifiersOf(readFileSync(join(ROOT, file), "utf8")).flatMap((specifier) => {
        const problem = boundaryProblem(file, specifier);
        return problem ? [`${file}: ${problem}`] : [];
      }),
    );
    expect(problems).toEqual([]);
  });

  it("flags the imports across features it exists to refuse", () => {
    expect(featureProblem("services/gateway/src/audits/audit-service.ts", "../sites/site-service")).toMatch(
      /past its index/,
    );
    expect(featureProblem("services/gateway/src/audits/audit-service.ts", "../sites")).toBeNull();
    expect(featureProblem("services/gateway/src/audits/audits.route.ts", "./audit-service")).toBeNull();
    expect(featureProblem("services/gateway/src/app.ts", "./scans/scan-service")).toMatch(/past its index/);
    expect(featureProblem("services/gateway/src/http/route.ts", "../scans")).toMatch(/plumbing/);
    expect(featureProblem("services/gateway/src/scans/scan.route.ts", "../http/route")).toBeNull();
  });

  it("features import each other only through their index, and plumbing imports no feature", () => {
    const laidOut = files.filter((file) => FEATURE_LAYOUTS.some(({ root }) => file.startsWith(`${root}/`)));
    for (const { root, features } of FEATURE_LAYOUTS)
      for (const feature of features) expect(existsSync(join(ROOT, root, feature, "index.ts"))).toBe(true);
    const problems = laidOut.flatMap((file) =>
      specifiersOf(readFileSync(join(ROOT, file), "utf8")).flatMap((specifier) => {
        const problem = featureProblem(file, specifier);
        return problem ? [`${file}: ${problem}`] : [];
      }),
    );
    expect(problems).toEqual([]);
  });

  it("no package depends on a service in its manifest", () => {
    const services = new Set(workspaces.filter((w) => w.kind === "service").map((w) => w.name));
    const problems = workspaces
      .filter((w) => w.kind === "package")
      .flatMap((w) => {
        const manifest = JSON.parse(readFileSync(join(ROOT, w.dir, "package.json"), "utf8"));
        const deps = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
        return deps.filter((dep) => services.has(dep)).map((dep) => `${w.name} depends on ${dep}`);
      });
    expect(problems).toEqual([]);
  });

  it("a workspace imports only the workspace packages its manifest depends on", () => {
    const problems = files.flatMap((file) => {
      const from = workspaceOf(file);
      if (!from) return [];
      const manifest = JSON.parse(readFileSync(join(ROOT, from.dir, "package.json"), "utf8"));
      const declared = new Set(Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }));
      return specifiersOf(readFileSync(join(ROOT, file), "utf8"))
        .map((specifier) => specifier.match(/^(@scan\/[^/]+)/)?.[1])
        .filter((name): name is string => name !== undefined && name !== from.name && !declared.has(name))
        .map((name) => `${file}: imports ${name}, which ${from.name}'s package.json does not depend on`);
    });
    expect([...new Set(problems)]).toEqual([]);
  });

  it("the workspace's dependencies form no cycle", () => {
    const dependsOn = new Map(
      workspaces.map((w) => {
        const manifest = JSON.parse(readFileSync(join(ROOT, w.dir, "package.json"), "utf8"));
        const deps = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
        return [w.name, deps.filter((dep) => workspaces.some((other) => other.name === dep))];
      }),
    );
    const cycles: string[] = [];
    const done = new Set<string>();
    const visit = (name: string, path: string[]) => {
      if (path.includes(name)) {
        cycles.push([...path.slice(path.indexOf(name)), name].join(" → "));
        return;
      }
      if (done.has(name)) return;
      for (const dep of dependsOn.get(name) ?? []) visit(dep, [...path, name]);
      done.add(name);
    };
    for (const name of dependsOn.keys()) visit(name, []);
    expect(cycles).toEqual([]);
  });

  it("every exports entry names a file that exists", () => {
    const missing = workspaces.flatMap((w) => {
      const manifest = JSON.parse(readFileSync(join(ROOT, w.dir, "package.json"), "utf8"));
      return Object.values((manifest.exports ?? {}) as Record<string, string>)
        .filter((target) => !existsSync(resolve(ROOT, w.dir, target)))
        .map((target) => `${w.name}: ${relative(ROOT, resolve(ROOT, w.dir, target))}`);
    });
    expect(missing).toEqual([]);
  });
});

/**
 * Scan (with its kept snapshot and callback attempts), audit, audit page, site, schedule, client,
 * keyword, citation track, alert and audit log rows, and the visibility configuration (profiles, prompts, competitors, engine keys) with its
 * runs, samples and cited pages, are
 * written only by @scan/records, whose operations hold each kind's transition table (the audit
 * log: its append): a write of one of those rows anywhere else in a package or a program (a
 * Prisma write, or SQL that inserts, updates or deletes) is refused.
 */
const RECORDS_DIR = "packages/records";
const PRISMA_ROW_WRITE =
  /\.(scan|audit|auditPage|site|auditSchedule|client|auditLogEntry|visibilityProfile|visibilityPrompt|competitor|engineKey|visibilityRun|visibilitySample|visibilityCitedPage|keyword|citationTrack|auditAlert|visibilityAlert|scanSnapshot|webhookDelivery)\s*\.\s*(create|createMany|createManyAndReturn|update|updateMany|updateManyAndReturn|upsert|delete|deleteMany)\s*\(/g;
const SQL_ROW_WRITE =
  /\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+"?(scans|audits|audit_pages|sites|audit_schedules|clients|audit_log_entries|visibility_profiles|visibility_prompts|competitors|engine_keys|visibility_runs|visibility_samples|visibility_cited_pages|keywords|citation_tracks|audit_alerts|visibility_alerts|scan_snapshots|webhook_deliveries)\b/gi;

const rowWritesOf = (source: string): string[] => [
  ...[...source.matchAll(PRISMA_ROW_WRITE)].map((m) => `${m[1]}.${m[2]}`),
  ...[...source.matchAll(SQL_ROW_WRITE)].map((m) => `${(m[1] ?? "").replace(/\s+/g, " ").toUpperCase()} ${m[2]}`),
];

describe("row writers", () => {
  const writers = ["packages", "services"].flatMap(sourceFiles).filter((file) => !file.startsWith(`${RECORDS_DIR}/`));

  it("flags the writes it exists to refuse, and not reads", () => {
    expect(rowWritesOf("await db.scan.updateMany({ where })")).toEqual(["scan.updateMany"]);
    expect(rowWritesOf("tx.auditPage\n  .update({ where })")).toEqual(["auditPage.update"]);
    expect(rowWritesOf("await tx.auditSchedule.create({ data })")).toEqual(["auditSchedule.create"]);
    expect(rowWritesOf('db.$executeRaw`UPDATE "audits" SET "status" = 1`')).toEqual(["UPDATE audits"]);
    expect(rowWritesOf('db.$executeRaw`INSERT INTO "sites" ("id") VALUES (1)`')).toEqual(["INSERT INTO sites"]);
    expect(rowWritesOf("db.$executeRaw`DELETE FROM scans WHERE true`")).toEqual(["DELETE FROM scans"]);
    expect(rowWritesOf("await tx.visibilityPrompt.createManyAndReturn({ data })")).toEqual([
      "visibilityPrompt.createManyAndReturn",
    ]);
    expect(rowWritesOf('db.$executeRaw`DELETE FROM "engine_keys"`')).toEqual(["DELETE FROM engine_keys"]);
    expect(rowWritesOf("await tx.auditLogEntry.create({ data })")).toEqual(["auditLogEntry.create"]);
    expect(rowWritesOf("await db.keyword.deleteMany({ where })")).toEqual(["keyword.deleteMany"]);
    expect(rowWritesOf("db.visibilityAlert.update({ where, data })")).toEqual(["visibilityAlert.update"]);
    expect(rowWritesOf('db.$executeRaw`INSERT INTO "citation_tracks" ("id") VALUES (1)`')).toEqual([
      "INSERT INTO citation_tracks",
    ]);
    expect(rowWritesOf("db.scan.findMany({ where }); db.site.count(); db.apiKey.createMany({ data })")).toEqual([]);
    expect(rowWritesOf('SELECT 1 FROM "audit_pages" WHERE "status" = \'queued\'')).toEqual([]);
  });

  it("looks at the programs' and libraries' files", () => {
    expect(writers).toEqual(expect.arrayContaining(["services/worker/src/jobs/scan.job.ts"]));
    expect(writers.some((file) => file.startsWith(`${RECORDS_DIR}/`))).toBe(false);
  });

  it(`no file outside ${RECORDS_DIR} writes scan, audit, audit page, site, schedule, client, keyword, citation track, alert, audit log or visibility rows`, () => {
    const problems = writers.flatMap((file) =>
      rowWritesOf(readFileSync(join(ROOT, file), "utf8")).map(
        (write) => `${file}: ${write}; use the operations of @scan/records`,
      ),
    );
    expect(problems).toEqual([]);
  });
});
