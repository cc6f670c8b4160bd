/**
 * What `pnpm lint:k8s` asks of a set of manifests beyond the API's schemas (scripts/lint-k8s.ts
 * runs these over every document it validated, with the kustomizations among them):
 * - images pinned by version: no `latest`, no image without a tag or digest, whether in a
 *   container or in a kustomization's `images:`;
 * - no `replicas` on a Deployment a KEDA ScaledObject scales (every apply would reset the scale);
 * - every Deployment's pods selected by a NetworkPolicy that governs their ingress;
 * - every Ingress with TLS for each of its hosts, routing no private path (`/metrics`, the queue
 *   dashboard, the probes; nor `/`, which routes them all), to Services that exist.
 */

// biome-ignore lint/suspicious/noExplicitAny: manifests are YAML of any shape, read here field by field after the schema check
type Manifest = Record<string, any>;

export type Located = { where: string; object: Manifest };
export type PolicyFinding = { file: string; message: string };

/** Paths of the gateway that must not be reachable through an Ingress. */
export const PRIVATE_PATHS = ["/metrics", "/admin/queues", "/healthz", "/readyz"];

const KUSTOMIZATION = "kustomize.config.k8s.io/v1beta1";

/** The image reference's tag, or null; a digest counts as pinned. */
const tagOf = (image: string): string | null | "digest" => {
  if (image.includes("@sha256:")) return "digest";
  const last = image.split("/").pop() ?? image;
  const colon = last.lastIndexOf(":");
  return colon === -1 ? null : last.slice(colon + 1);
};

const nameOf = (image: string): string => {
  const at = image.indexOf("@");
  const bare = at === -1 ? image : image.slice(0, at);
  const slash = bare.lastIndexOf("/");
  const colon = bare.lastIndexOf(":");
  return colon > slash ? bare.slice(0, colon) : bare;
};

const containersOf = (deployment: Manifest): Array<{ name: string; image: string }> => {
  const pod = deployment.spec?.template?.spec ?? {};
  return [...(pod.initContainers ?? []), ...(pod.containers ?? [])];
};

const selects = (selector: Manifest | undefined, labels: Record<string, string>): boolean => {
  const match = selector?.matchLabels ?? {};
  const expressions: Array<{ key: string; operator: string; values?: string[] }> = selector?.matchExpressions ?? [];
  return (
    Object.entries(match).every(([key, value]) => labels[key] === value) &&
    expressions.every(({ key, operator, values = [] }) => {
      if (operator === "In") return values.includes(labels[key] ?? "");
      if (operator === "NotIn") return !values.includes(labels[key] ?? "");
      if (operator === "Exists") return key in labels;
      if (operator === "DoesNotExist") return !(key in labels);
      return false;
    })
  );
};

/** Whether an Ingress path of this type would pass a request for `target` on. */
const routes = (path: string, pathType: string, target: string): boolean => {
  if (pathType === "Exact") return path === target;
  const prefix = path.endsWith("/") ? path.slice(0, -1) : path;
  return prefix === "" || target === prefix || target.startsWith(`${prefix}/`);
};

const imageFindings = (documents: readonly Located[]): PolicyFinding[] => {
  const findings: PolicyFinding[] = [];
  const pinned = new Set<string>();
  for (const { where, object } of documents) {
    if (object.apiVersion !== KUSTOMIZATION) continue;
    for (const entry of (object.images ?? []) as Array<Record<string, string>>) {
      const tag = entry.digest ? "digest" : (entry.newTag ?? null);
      if (tag === null) findings.push({ file: where, message: `images: ${entry.name} has no newTag or digest` });
      else if (tag === "latest") findings.push({ file: where, message: `images: ${entry.name} is tagged latest` });
      else if (entry.name) pinned.add(entry.name);
    }
  }
  for (const { where, object } of documents) {
    if (!["Deployment", "StatefulSet", "DaemonSet", "Job"].includes(object.kind)) continue;
    for (const container of containersOf(object)) {
      if (pinned.has(nameOf(container.image))) continue;
      const tag = tagOf(container.image);
      if (tag === null || tag === "latest") {
        findings.push({
          file: where,
          message: `${object.kind} ${object.metadata?.name}: container ${container.name} image ${container.image} is not pinned by version (tag it, or pin it in the kustomization's images)`,
        });
      }
    }
  }
  return findings;
};

const scalingFindings = (documents: readonly Located[]): PolicyFinding[] =>
  documents.flatMap(({ object }) => {
    if (object.kind !== "ScaledObject") return [];
    const target = object.spec?.scaleTargetRef ?? {};
    const kind = target.kind ?? "Deployment";
    const scaled = documents.find((d) => d.object.kind === kind && d.object.metadata?.name === target.name);
    if (scaled && scaled.object.spec?.replicas !== undefined) {
      return [
        {
          file: scaled.where,
          message: `${kind} ${target.name}: sets replicas, but KEDA's ScaledObject ${object.metadata?.name} owns them (every apply would reset the scale)`,
        },
      ];
    }
    return [];
  });

const networkFindings = (documents: readonly Located[]): PolicyFinding[] => {
  const policies = documents
    .map((d) => d.object)
    .filter((o) => o.kind === "NetworkPolicy")
    .filter((o) => (o.spec?.policyTypes ?? ["Ingress"]).includes("Ingress"));
  return documents.flatMap(({ where, object }) => {
    if (object.kind !== "Deployment") return [];
    const labels: Record<string, string> = object.spec?.template?.metadata?.labels ?? {};
    if (policies.some((policy) => selects(policy.spec?.podSelector, labels))) return [];
    return [
      {
        file: where,
        message: `Deployment ${object.metadata?.name}: no NetworkPolicy selects its pods (anything in the cluster could connect)`,
      },
    ];
  });
};

const ingressFindings = (documents: readonly Located[]): PolicyFinding[] => {
  const findings: PolicyFinding[] = [];
  const services = new Map(
    documents.filter((d) => d.object.kind === "Service").map((d) => [d.object.metadata?.name, d.object]),
  );
  for (const { where, object } of documents) {
    if (object.kind !== "Ingress") continue;
    const name = `Ingress ${object.metadata?.name}`;
    const tls: Array<{ hosts?: string[]; secretName?: string }> = object.spec?.tls ?? [];
    if (tls.length === 0) findings.push({ file: where, message: `${name}: has no tls` });
    for (const entry of tls) {
      if (!entry.secretName) findings.push({ file: where, message: `${name}: a tls entry has no secretName` });
    }
    const secured = new Set(tls.flatMap((entry) => entry.hosts ?? []));
    if (object.spec?.defaultBackend)
      findings.push({ file: where, message: `${name}: a defaultBackend routes every path` });
    for (const rule of (object.spec?.rules ?? []) as Array<Manifest>) {
      const host = rule.host ?? "*";
      if (!secured.has(host)) findings.push({ file: where, message: `${name}: host ${host} is not covered by tls` });
      for (const path of (rule.http?.paths ?? []) as Array<Manifest>) {
        const routed = PRIVATE_PATHS.filter((target) =>
          routes(path.path ?? "/", path.pathType ?? "ImplementationSpecific", target),
        );
        if (routed.length > 0) {
          findings.push({ file: where, message: `${name}: path ${path.path} routes ${routed.join(", ")}` });
        }
        const backend = path.backend?.service ?? {};
        const service = services.get(backend.name);
        if (!service) {
          findings.push({ file: where, message: `${name}: path ${path.path} goes to no Service of these manifests` });
        } else if (
          !(service.spec?.ports ?? []).some(
            (port: Record<string, unknown>) => port.name === backend.port?.name || port.port === backend.port?.number,
          )
        ) {
          findings.push({ file: where, message: `${name}: path ${path.path} goes to a port ${backend.name} lacks` });
        }
      }
    }
  }
  return findings;
};

export const policyFindings = (documents: readonly Located[]): PolicyFinding[] => [
  ...imageFindings(documents),
  ...scalingFindings(documents),
  ...networkFindings(documents),
  ...ingressFindings(documents),
];
