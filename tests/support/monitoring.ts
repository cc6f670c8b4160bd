import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Gateway } from "@scan/gateway";
import { stringify } from "yaml";

/** prom-client's registry, as the services hold it */
type Registry = Gateway["metrics"]["registry"];

/**
 * What the monitoring files (alert rules, dashboard) may name: the series the services'
 * registries really export, and a PromQL reader that lists the series an expression selects.
 */

export type Promtool = { status: number; output: string };

/** Runs Debian's promtool (package `prometheus`); a missing one is an error that says how to get it. */
export const promtool = (...args: string[]): Promtool => {
  const result = spawnSync("promtool", args, { encoding: "utf8" });
  if (result.error) {
    throw new Error(
      `cannot run promtool (${result.error.message}): install it (Debian: apt-get install prometheus, which provides /usr/bin/promtool)`,
    );
  }
  return { status: result.status ?? 1, output: `${result.stdout}${result.stderr}` };
};

/**
 * Parses PromQL expressions with Prometheus's own parser: promtool reads expressions only
 * inside rule files, so each becomes a recording rule of a generated file.
 */
export const checkExpressions = (expressions: readonly string[]): Promtool => {
  const dir = mkdtempSync(join(tmpdir(), "promql-"));
  try {
    const file = join(dir, "expressions.yml");
    const rules = expressions.map((expr, index) => ({ record: `checked:expression_${index}`, expr }));
    writeFileSync(file, stringify({ groups: [{ name: "expressions", rules }] }));
    return promtool("check", "rules", file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

/** Series name → the label names it carries, as Prometheus stores what the registry exposes. */
export type SeriesCatalogue = Map<string, Set<string>>;

/** Labels Prometheus adds to every scraped series. */
const TARGET_LABELS = ["job", "instance"];

export const seriesOf = async (...registries: Registry[]): Promise<SeriesCatalogue> => {
  const catalogue: SeriesCatalogue = new Map();
  const add = (name: string, labels: readonly string[]) => {
    const known = catalogue.get(name) ?? new Set(TARGET_LABELS);
    for (const label of labels) known.add(label);
    catalogue.set(name, known);
  };
  for (const registry of registries) {
    for (const metric of await registry.getMetricsAsJSON()) {
      const labels = ((registry.getSingleMetric(metric.name) as unknown as { labelNames?: string[] })?.labelNames ??
        []) as string[];
      const sampleLabels = metric.values.flatMap((value) => Object.keys(value.labels));
      const all = [...labels, ...sampleLabels].filter((label) => label !== "le" && label !== "quantile");
      switch (String(metric.type)) {
        case "histogram":
          add(`${metric.name}_bucket`, [...all, "le"]);
          add(`${metric.name}_sum`, all);
          add(`${metric.name}_count`, all);
          break;
        case "summary":
          add(metric.name, [...all, "quantile"]);
          add(`${metric.name}_sum`, all);
          add(`${metric.name}_count`, all);
          break;
        default:
          add(metric.name, all);
      }
    }
  }
  return catalogue;
};

export type Selector = { metric: string; labels: string[] };

const AGGREGATIONS = new Set([
  "sum",
  "min",
  "max",
  "avg",
  "group",
  "stddev",
  "stdvar",
  "count",
  "count_values",
  "bottomk",
  "topk",
  "quantile",
]);
const KEYWORDS = new Set([
  "and",
  "or",
  "unless",
  "by",
  "without",
  "on",
  "ignoring",
  "group_left",
  "group_right",
  "bool",
]);
const CONSTANTS = new Set(["inf", "nan"]);

const TOKEN = /[a-zA-Z_:][a-zA-Z0-9_:]*|\{[^}]*\}|\d+(?:\.\d+)?(?:e[+-]?\d+)?|\S/gi;
const MATCHER = /([a-zA-Z_][a-zA-Z0-9_]*)\s*(?:=~|!~|!=|=)/g;

/**
 * The series an expression selects, with the label names its matchers use. Grouping clauses
 * (`by (...)`, `on (...)`), range and subquery brackets, offsets and strings are set aside
 * first; an identifier then is a function (followed by a parenthesis), an operator keyword, or
 * a metric name. A selector with no metric name comes back with `metric: ""`.
 */
export const selectorsOf = (expression: string): Selector[] => {
  const text = expression
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, " ")
    .replace(/\[[^\]]*\]/g, " ")
    .replace(/\boffset\s+-?\w+/g, " ");
  const tokens = text.match(TOKEN) ?? [];
  const selectors: Selector[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string;
    const next = tokens[i + 1];
    const labelsOf = (block: string) => [...block.matchAll(MATCHER)].map((match) => match[1] as string);
    if (token.startsWith("{")) {
      selectors.push({ metric: "", labels: labelsOf(token) });
      continue;
    }
    if (!/^[a-zA-Z_:]/.test(token)) continue;
    if (next === "(" || AGGREGATIONS.has(token) || KEYWORDS.has(token) || CONSTANTS.has(token.toLowerCase())) continue;
    if (next?.startsWith("{")) {
      selectors.push({ metric: token, labels: labelsOf(next) });
      i += 1;
    } else {
      selectors.push({ metric: token, labels: [] });
    }
  }
  return selectors;
};

/** Problems of an expression against what the services export: unknown series, unknown labels. */
export const unknownNames = (expression: string, catalogue: SeriesCatalogue): string[] =>
  selectorsOf(expression).flatMap(({ metric, labels }) => {
    if (metric === "") return ["a selector without a metric name"];
    const known = catalogue.get(metric);
    if (!known) return [`${metric} is not exported`];
    return labels
      .filter((label) => label !== "__name__" && !known.has(label))
      .map((label) => `${metric} has no label ${label}`);
  });
