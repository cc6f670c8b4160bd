/**
 * Compiles the two programs for production: `pnpm build` bundles each entry point of a service,
 * with the workspace packages and most of node_modules, into one CommonJS file under
 * services/<name>/dist/ (plus its source map), so the images run `node dist/main.js` with no
 * TypeScript at run time.
 *
 * A few dependencies stay outside the bundle because they find files of their own on disk at
 * run time: Playwright (its driver and browser registry), swagger-ui-dist (the docs page's
 * assets) and bull-board (its UI, located with require.resolve). Each one must be a dependency
 * of the service itself, so that it resolves from dist/ in the workspace and in the image
 * (`pnpm deploy --prod` installs exactly the service's dependencies); the build refuses otherwise.
 */
import { readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { type BuildResult, build } from "esbuild";

export const ROOT = resolve(__dirname, "..");

export type ServiceBuild = {
  service: "gateway" | "worker";
  /** output name (dist/<name>.js) → entry file under services/<service>/ */
  entries: Record<string, string>;
  /** packages loaded from node_modules at run time, not bundled */
  external: string[];
};

export const SERVICE_BUILDS: readonly ServiceBuild[] = [
  {
    service: "gateway",
    entries: {
      main: "src/main.ts",
      migrate: "src/migrate-cli.ts",
      accounts: "src/accounts-cli.ts",
      seed: "src/seed-cli.ts",
    },
    // @node-rs/argon2 loads a prebuilt native add-on for the platform at run time; playwright-core
    // (which prints the client reports) reads its own files beside its modules
    external: ["swagger-ui-dist", "@bull-board/api", "@bull-board/express", "@node-rs/argon2", "playwright-core"],
  },
  {
    service: "worker",
    // the scanner's thread that reads a full scan's served HTML while the page renders, found beside main.js
    entries: { main: "src/main.ts", "served-reader.thread": "../../packages/scanner/src/served-reader.thread.ts" },
    external: ["playwright-core"],
  },
];

/** The node versions the images and engines field run; esbuild lowers nothing newer than this. */
const TARGET = "node20";

const dependenciesOf = (service: string): Record<string, string> =>
  (
    JSON.parse(readFileSync(join(ROOT, "services", service, "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
    }
  ).dependencies ?? {};

export const buildService = async ({ service, entries, external }: ServiceBuild): Promise<BuildResult> => {
  const dir = join(ROOT, "services", service);
  const declared = dependenciesOf(service);
  const missing = external.filter((name) => !declared[name]);
  if (missing.length > 0) {
    throw new Error(`services/${service}/package.json must list ${missing.join(", ")} (kept out of the bundle)`);
  }
  const outdir = join(dir, "dist");
  rmSync(outdir, { recursive: true, force: true });
  return build({
    absWorkingDir: ROOT,
    entryPoints: Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, join(dir, file)])),
    outdir,
    bundle: true,
    platform: "node",
    target: TARGET,
    format: "cjs",
    // stack traces point at the TypeScript sources (run with --enable-source-maps)
    sourcemap: true,
    // class and function names survive: errors, logs and prom-client read them
    keepNames: true,
    // optional native add-ons some dependencies try first and do without
    external: [...external, ...external.map((name) => `${name}/*`), "pg-native"],
    logLevel: "warning",
    metafile: true,
  });
};

if (require.main === module) {
  const started = Date.now();
  Promise.all(SERVICE_BUILDS.map(buildService)).then(
    (results) => {
      for (const [index, result] of results.entries()) {
        const { service } = SERVICE_BUILDS[index] as ServiceBuild;
        const outputs = Object.entries(result.metafile?.outputs ?? {}).filter(([file]) => file.endsWith(".js"));
        for (const [file, output] of outputs) {
          process.stdout.write(`${service}: ${file} ${(output.bytes / 1024 / 1024).toFixed(1)} MiB\n`);
        }
      }
      process.stdout.write(`built in ${Date.now() - started} ms\n`);
    },
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
