/**
 * Validates the Kubernetes manifests against the API's schemas: `pnpm lint:k8s [dir or files]`
 * (default infra/k8s). Offline: the schemas come from npm, kubernetes-models for the built-in
 * kinds and @kubernetes-models/keda for KEDA's ScaledObject and TriggerAuthentication. A
 * document of a kind with no schema here is an error, not a skip. The kustomization must list
 * every manifest in its directory. Like the API server, these schemas do not reject unknown
 * fields; tests/k8s.test.ts checks the fields the service depends on. Then the set of documents
 * given (a directory is a deployable set) must keep the policy of scripts/k8s-policy.ts: images
 * pinned by version, no replicas on a KEDA target, a NetworkPolicy for every Deployment, an
 * Ingress only with TLS and only on public paths.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { parseAllDocuments } from "yaml";
import { type Located, policyFindings } from "./k8s-policy";

type Validatable = { validate(): void };
type ModelClass = new (data: object) => Validatable;

/**
 * Schemas by apiVersion; each module exports its kinds by name. The packages are ES modules
 * only, so they are imported, not required.
 */
const loadSchemas = async (): Promise<Record<string, Record<string, unknown>>> => ({
  v1: await import("kubernetes-models/v1"),
  "apps/v1": await import("kubernetes-models/apps/v1"),
  "batch/v1": await import("kubernetes-models/batch/v1"),
  "policy/v1": await import("kubernetes-models/policy/v1"),
  "autoscaling/v2": await import("kubernetes-models/autoscaling/v2"),
  "networking.k8s.io/v1": await import("kubernetes-models/networking.k8s.io/v1"),
  "keda.sh/v1alpha1": await import("@kubernetes-models/keda/keda.sh/v1alpha1"),
});

const KUSTOMIZATION = "kustomize.config.k8s.io/v1beta1";

export type Finding = { file: string; message: string };

const describeErrors = (error: unknown): string => {
  const details = (error as { details?: Array<{ instancePath?: string; message?: string }> }).details;
  if (Array.isArray(details) && details.length > 0) {
    return details.map((d) => `${d.instancePath || "/"} ${d.message ?? "is invalid"}`).join("; ");
  }
  return error instanceof Error ? error.message : String(error);
};

const yamlFiles = (paths: readonly string[]): string[] =>
  paths.flatMap((path) =>
    statSync(path).isDirectory()
      ? readdirSync(path)
          .filter((name) => /\.ya?ml$/.test(name))
          .sort()
          .map((name) => join(path, name))
      : [path],
  );

/** Every problem in these manifests; empty when they are all valid. */
export const lintManifests = async (paths: readonly string[]): Promise<{ findings: Finding[]; checked: number }> => {
  const SCHEMAS = await loadSchemas();
  const findings: Finding[] = [];
  const valid: Located[] = [];
  let checked = 0;
  const files = yamlFiles(paths);
  for (const file of files) {
    const name = relative(process.cwd(), file);
    const documents = parseAllDocuments(readFileSync(file, "utf8"));
    for (const [index, document] of (Array.isArray(documents) ? documents : [documents]).entries()) {
      const where = `${name}#${index + 1}`;
      if (document.errors.length > 0) {
        findings.push({ file: where, message: `not YAML: ${document.errors[0]?.message}` });
        continue;
      }
      const object = document.toJS() as { apiVersion?: unknown; kind?: unknown; resources?: unknown } | null;
      if (object === null) continue;
      if (typeof object.apiVersion !== "string" || typeof object.kind !== "string") {
        findings.push({ file: where, message: "apiVersion and kind are required" });
        continue;
      }
      if (object.apiVersion === KUSTOMIZATION && object.kind === "Kustomization") {
        const listed = new Set(Array.isArray(object.resources) ? object.resources.map(String) : []);
        const siblings = readdirSync(dirname(file)).filter((n) => /\.ya?ml$/.test(n) && n !== basename(file));
        for (const sibling of siblings) {
          if (!listed.has(sibling)) findings.push({ file: where, message: `resources does not list ${sibling}` });
        }
        for (const entry of listed) {
          if (!siblings.includes(entry)) findings.push({ file: where, message: `resources lists missing ${entry}` });
        }
        valid.push({ where, object });
        checked += 1;
        continue;
      }
      const model = SCHEMAS[object.apiVersion]?.[object.kind] as ModelClass | undefined;
      if (typeof model !== "function") {
        findings.push({ file: where, message: `no schema for ${object.apiVersion} ${object.kind}` });
        continue;
      }
      try {
        new model(object).validate();
        valid.push({ where, object });
        checked += 1;
      } catch (error) {
        findings.push({ file: where, message: `${object.kind}: ${describeErrors(error)}` });
      }
    }
  }
  findings.push(...policyFindings(valid));
  return { findings, checked };
};

if (require.main === module) {
  const paths = process.argv.slice(2);
  const targets = paths.length > 0 ? paths.map((p) => resolve(p)) : [resolve(__dirname, "../infra/k8s")];
  lintManifests(targets).then(({ findings, checked }) => {
    for (const finding of findings) process.stderr.write(`${finding.file}: ${finding.message}\n`);
    process.stdout.write(`${checked} Kubernetes documents valid, ${findings.length} problems\n`);
    process.exitCode = findings.length > 0 ? 1 : 0;
  });
}
