import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Config as GatewayConfig, httpsRequired } from "@scan/gateway";
import { SCAN_QUEUE } from "@scan/queue";
import { Config as WorkerConfig } from "@scan/worker";
import { parse, parseAllDocuments } from "yaml";
import { SERVICE_BUILDS } from "../scripts/build";
import { PRIVATE_PATHS } from "../scripts/k8s-policy";

/**
 * The Kubernetes manifests: valid against the API's schemas (pnpm lint:k8s, offline, schemas
 * from npm), and wired to what the services really serve and read.
 */

// the validator runs as a process (tsx), twice
jest.setTimeout(300_000);

const ROOT = resolve(__dirname, "..");
const K8S = join(ROOT, "infra/k8s");

const lint = (...paths: string[]) =>
  spawnSync(
    process.execPath,
    [join(ROOT, "node_modules/tsx/dist/cli.mjs"), join(ROOT, "scripts/lint-k8s.ts"), ...paths],
    {
      encoding: "utf8",
      cwd: ROOT,
    },
  );

type Doc = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; annotations?: Record<string, string> };
  spec?: any;
  data?: Record<string, string>;
};

const documents: Doc[] = readdirSync(K8S)
  .filter((name) => name.endsWith(".yaml") && name !== "kustomization.yaml")
  .flatMap((name) => parseAllDocuments(readFileSync(join(K8S, name), "utf8")).map((d) => d.toJS() as Doc));

const find = (kind: string, name: string): Doc => {
  const doc = documents.find((d) => d.kind === kind && d.metadata.name === name);
  if (!doc) throw new Error(`no ${kind} ${name} in infra/k8s`);
  return doc;
};

const deployment = (name: string) => find("Deployment", name);
const container = (name: string) => deployment(name).spec.template.spec.containers[0];

const SECRET_SETTINGS = ["DATABASE_URL", "REDIS_URL", "ADMIN_TOKEN", "METRICS_TOKEN", "WEBHOOK_SECRET", "SMTP_URL"];

describe("Kubernetes manifests", () => {
  it("are valid against the Kubernetes and KEDA schemas", () => {
    const result = lint();
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(/^\d+ Kubernetes documents valid, 0 problems/);
    expect(result.status).toBe(0);
  });

  it("the validator refuses a broken manifest and a kind it has no schema for", () => {
    const dir = mkdtempSync(join(tmpdir(), "k8s-"));
    writeFileSync(
      join(dir, "broken.yaml"),
      [
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec:\n  replicas: two\n  selector: {matchLabels: {a: b}}\n  template:\n    spec:\n      containers: [{image: i}]",
        "apiVersion: keda.sh/v1alpha1\nkind: ScaledObject\nmetadata: {name: y}\nspec:\n  triggers: [{type: prometheus, metadata: {query: x}}]",
        "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: z}",
      ].join("\n---\n"),
    );
    const result = lint(dir);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("spec/replicas must be integer");
    expect(result.stderr).toContain("must have required property name");
    expect(result.stderr).toContain("must have required property scaleTargetRef");
    expect(result.stderr).toContain("no schema for example.com/v1 Widget");
  });

  it("the validator's policy refuses latest, replicas on a KEDA target, pods no NetworkPolicy covers, an Ingress without TLS or routing private paths", () => {
    const dir = mkdtempSync(join(tmpdir(), "k8s-"));
    const deployment = (name: string, image: string, replicas = "") =>
      `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: ${name}}\nspec:\n${replicas}  selector: {matchLabels: {app: ${name}}}\n  template:\n    metadata: {labels: {app: ${name}}}\n    spec:\n      containers: [{name: c, image: "${image}"}]`;
    writeFileSync(
      join(dir, "bad.yaml"),
      [
        deployment("web", "web:latest"),
        deployment("jobs", "jobs", "  replicas: 1\n"),
        "apiVersion: keda.sh/v1alpha1\nkind: ScaledObject\nmetadata: {name: jobs}\nspec:\n  scaleTargetRef: {name: jobs}\n  triggers: [{type: cpu, metadata: {value: '50'}}]",
        "apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec:\n  selector: {app: web}\n  ports: [{name: http, port: 80}]",
        "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: web}\nspec:\n  podSelector: {matchLabels: {app: web}}\n  policyTypes: [Ingress]",
        "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: open}\nspec:\n  rules:\n    - host: a.example\n      http:\n        paths:\n          - {path: /, pathType: Prefix, backend: {service: {name: web, port: {name: http}}}}\n          - {path: /metrics, pathType: Exact, backend: {service: {name: gone, port: {name: http}}}}",
      ].join("\n---\n"),
    );
    writeFileSync(
      join(dir, "kustomization.yaml"),
      "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [bad.yaml]\nimages:\n  - {name: jobs, newTag: latest}",
    );
    const result = lint(dir);
    expect(result.status).toBe(1);
    for (const message of [
      "images: jobs is tagged latest",
      "container c image web:latest is not pinned by version",
      "container c image jobs is not pinned by version",
      "Deployment jobs: sets replicas, but KEDA's ScaledObject jobs owns them",
      "Deployment jobs: no NetworkPolicy selects its pods",
      "Ingress open: has no tls",
      "Ingress open: host a.example is not covered by tls",
      "Ingress open: path / routes /metrics, /admin/queues, /healthz, /readyz",
      "Ingress open: path /metrics routes /metrics",
      "Ingress open: path /metrics goes to no Service of these manifests",
    ]) {
      expect(result.stderr).toContain(message);
    }
    expect(result.stderr).not.toContain("Deployment web: no NetworkPolicy");
  });

  it("pin both images to the release's version, and leave the KEDA-scaled worker's replicas to KEDA", () => {
    const kustomization = parse(readFileSync(join(K8S, "kustomization.yaml"), "utf8"));
    const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
    expect(kustomization.images).toEqual([
      expect.objectContaining({ name: "aeo-scan-gateway", newTag: version }),
      expect.objectContaining({ name: "aeo-scan-worker", newTag: version }),
    ]);
    expect(deployment("aeo-scan-worker").spec.replicas).toBeUndefined();
  });

  it("route only the gateway's public paths through the Ingress, over TLS from cert-manager", () => {
    const ingress = find("Ingress", "aeo-scan");
    expect(ingress.metadata.annotations?.["cert-manager.io/cluster-issuer"]).toBeTruthy();
    const [rule] = ingress.spec.rules;
    expect(ingress.spec.tls).toEqual([{ hosts: [rule.host], secretName: expect.any(String) }]);
    const paths = rule.http.paths.map((p: any) => `${p.pathType} ${p.path}`);
    expect(paths.sort()).toEqual(
      ["Prefix /api/v1", "Prefix /mcp", "Prefix /docs", "Exact /openapi.json", "Exact /favicon.ico"].sort(),
    );
    for (const path of rule.http.paths) {
      expect(path.backend.service).toEqual({ name: "aeo-scan-gateway", port: { name: "http" } });
    }
    for (const hidden of PRIVATE_PATHS) expect(paths.some((p: string) => p.endsWith(` ${hidden}`))).toBe(false);
  });

  it("let only the Ingress controller and monitoring reach the gateway, and only monitoring the workers' metrics", () => {
    const gateway = find("NetworkPolicy", "aeo-scan-gateway");
    expect(gateway.spec.podSelector.matchLabels).toEqual(deployment("aeo-scan-gateway").spec.selector.matchLabels);
    expect(gateway.spec.policyTypes).toEqual(["Ingress"]);
    const namespaces = (rule: any) => rule.from.map((peer: any) => peer.namespaceSelector.matchLabels);
    expect(gateway.spec.ingress.map(namespaces)).toEqual([
      [{ "kubernetes.io/metadata.name": "ingress-nginx" }],
      [{ "kubernetes.io/metadata.name": "monitoring" }],
    ]);
    for (const rule of gateway.spec.ingress) expect(rule.ports).toEqual([{ port: "http", protocol: "TCP" }]);
    const worker = find("NetworkPolicy", "aeo-scan-worker");
    expect(worker.spec.podSelector.matchLabels).toEqual(deployment("aeo-scan-worker").spec.selector.matchLabels);
    expect(worker.spec.ingress).toEqual([
      {
        from: [{ namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "monitoring" } } }],
        ports: [{ port: "metrics", protocol: "TCP" }],
      },
    ]);
    // the named ports are the containers'
    expect(container("aeo-scan-gateway").ports.map((p: any) => p.name)).toContain("http");
    expect(container("aeo-scan-worker").ports.map((p: any) => p.name)).toContain("metrics");
  });

  it("require HTTPS in the gateway, believing the Ingress controller's X-Forwarded-Proto", () => {
    const image = readFileSync(join(ROOT, "infra/gateway.Dockerfile"), "utf8");
    expect(image).toMatch(/ENV NODE_ENV=production/);
    const config = GatewayConfig.parse({
      ...find("ConfigMap", "aeo-scan-config").data,
      NODE_ENV: "production",
      DATABASE_URL: "postgresql://db/scan",
    });
    expect(httpsRequired(config)).toBe(true);
    expect(config.TRUST_PROXY).toBe(1);
  });

  it("run the compiled programs: the migrations step runs a bundle the build makes", () => {
    const migrate = deployment("aeo-scan-gateway").spec.template.spec.initContainers[0];
    expect(migrate.command).toEqual(["node", "dist/migrate.js"]);
    const gateway = SERVICE_BUILDS.find((build) => build.service === "gateway");
    expect(Object.keys(gateway?.entries ?? {})).toContain("migrate");
  });

  it("probe the gateway on /healthz and /readyz at the port it listens on", () => {
    const gateway = container("aeo-scan-gateway");
    const port = gateway.ports.find((p: any) => p.name === "http");
    expect(port.containerPort).toBe(3000);
    expect(gateway.env.find((e: any) => e.name === "PORT").value).toBe(String(port.containerPort));
    expect(gateway.livenessProbe.httpGet).toEqual({ path: "/healthz", port: "http" });
    expect(gateway.startupProbe.httpGet).toEqual({ path: "/healthz", port: "http" });
    expect(gateway.readinessProbe.httpGet).toEqual({ path: "/readyz", port: "http" });
    // the probe waits longer than /readyz can take
    expect(gateway.readinessProbe.timeoutSeconds * 1000).toBeGreaterThan(
      Number(find("ConfigMap", "aeo-scan-config").data?.READY_TIMEOUT_MS),
    );
  });

  it("probe the worker on its metrics port", () => {
    const worker = container("aeo-scan-worker");
    const port = worker.ports.find((p: any) => p.name === "metrics");
    expect(worker.env.find((e: any) => e.name === "METRICS_PORT").value).toBe(String(port.containerPort));
    expect(worker.livenessProbe.httpGet).toEqual({ path: "/healthz", port: "metrics" });
    expect(worker.readinessProbe.httpGet).toEqual({ path: "/readyz", port: "metrics" });
  });

  it("give every container resource requests and limits", () => {
    for (const doc of documents.filter((d) => d.kind === "Deployment")) {
      const pod = doc.spec.template.spec;
      for (const c of [...(pod.initContainers ?? []), ...pod.containers]) {
        expect([doc.metadata.name, c.name, Object.keys(c.resources.requests).sort()]).toEqual([
          doc.metadata.name,
          c.name,
          ["cpu", "memory"],
        ]);
        expect([doc.metadata.name, c.name, c.resources.limits.memory]).toEqual([
          doc.metadata.name,
          c.name,
          expect.stringMatching(/^\d+(Mi|Gi)$/),
        ]);
      }
    }
  });

  it("take secrets by reference only, and hold no Secret themselves", () => {
    expect(documents.filter((d) => d.kind === "Secret")).toEqual([]);
    for (const doc of documents.filter((d) => d.kind === "Deployment")) {
      const pod = doc.spec.template.spec;
      for (const c of [...(pod.initContainers ?? []), ...pod.containers]) {
        for (const env of c.env ?? []) {
          if (!SECRET_SETTINGS.includes(env.name)) continue;
          expect([c.name, env.name, env.value]).toEqual([c.name, env.name, undefined]);
          expect(env.valueFrom.secretKeyRef).toEqual(
            expect.objectContaining({ name: "aeo-scan-secrets", key: env.name }),
          );
        }
      }
    }
    const config = find("ConfigMap", "aeo-scan-config").data ?? {};
    for (const name of SECRET_SETTINGS) expect(config[name]).toBeUndefined();
  });

  it("configure only settings the services know, with values they accept", () => {
    const data = find("ConfigMap", "aeo-scan-config").data ?? {};
    const known = new Set([...Object.keys(GatewayConfig.shape), ...Object.keys(WorkerConfig.shape)]);
    for (const key of Object.keys(data)) expect([key, known.has(key)]).toEqual([key, true]);
    const secrets = { DATABASE_URL: "postgresql://db/scan", REDIS_URL: "redis://redis:6379" };
    const inline = (name: string) =>
      Object.fromEntries(
        container(name)
          .env.filter((e: any) => e.value !== undefined)
          .map((e: any) => [e.name, e.value]),
      );
    expect(GatewayConfig.safeParse({ ...data, ...inline("aeo-scan-gateway"), ...secrets }).success).toBe(true);
    const worker = WorkerConfig.safeParse({ ...data, ...inline("aeo-scan-worker"), ...secrets });
    expect(worker.success).toBe(true);
    // the pod outlives the worker's own shutdown bound and its 5 s hard stop
    const grace = deployment("aeo-scan-worker").spec.template.spec.terminationGracePeriodSeconds;
    expect(grace * 1000).toBeGreaterThan((worker.data?.SHUTDOWN_TIMEOUT_MS ?? 0) + 5_000);
  });

  it("cover each Deployment with a PodDisruptionBudget and route each Service to one", () => {
    for (const doc of documents.filter((d) => d.kind === "Deployment")) {
      const labels = doc.spec.template.metadata.labels;
      for (const [key, value] of Object.entries(doc.spec.selector.matchLabels)) expect(labels[key]).toBe(value);
      const budgets = documents.filter(
        (d) =>
          d.kind === "PodDisruptionBudget" &&
          Object.entries(d.spec.selector.matchLabels).every(([k, v]) => labels[k] === v),
      );
      expect([doc.metadata.name, budgets.length]).toEqual([doc.metadata.name, 1]);
    }
    for (const service of documents.filter((d) => d.kind === "Service")) {
      const targets = documents.filter(
        (d) =>
          d.kind === "Deployment" &&
          Object.entries(service.spec.selector).every(([k, v]) => d.spec.template.metadata.labels[k] === v),
      );
      expect([service.metadata.name, targets.length]).toEqual([service.metadata.name, 1]);
    }
  });

  it("scale the worker Deployment on the gateway's queue-depth metric", () => {
    const scaled = find("ScaledObject", "aeo-scan-worker");
    expect(scaled.spec.scaleTargetRef).toEqual({ apiVersion: "apps/v1", kind: "Deployment", name: "aeo-scan-worker" });
    const [trigger] = scaled.spec.triggers;
    expect(trigger.type).toBe("prometheus");
    expect(trigger.metadata.query).toContain(`scan_queue_jobs{queue="${SCAN_QUEUE}"`);
    // the metric and its states are what the gateway exports
    const source = readFileSync(join(ROOT, "services/gateway/src/observability/metrics.ts"), "utf8");
    expect(source).toContain('name: "scan_queue_jobs"');
    for (const state of /state=~"([^"]+)"/.exec(trigger.metadata.query)?.[1]?.split("|") ?? ["none"]) {
      expect(source).toContain(`"${state}"`);
    }
    expect(scaled.spec.minReplicaCount).toBeGreaterThanOrEqual(1);
  });
});
