import type { Verdicts } from "./extract";
import {
  type Change,
  commonCause,
  FIXED_ELSEWHERE,
  LEFT,
  NOTES,
  REASONS,
  REVIEWED,
  SCANNED_DIFFERENCES,
} from "./reasons";

/** Lighthouse agreement as the corpus test reports it ("858 of 859"), or as computed here. */
export type Agreement = { agree: number; compared: number };
/** A browser-free verdict that disagrees with Lighthouse's audit of the same page. */
export type Disagreement = { page: string; check: string };

export type ReportInput = {
  /** the checks whose verdicts Lighthouse's audits are compared with */
  lighthouseChecks: readonly string[];
  before: { label: string; verdicts: Verdicts; lighthouse: Agreement | null; snapshotLighthouse: Agreement };
  after: {
    label: string;
    verdicts: Verdicts;
    lighthouse: Agreement | null;
    snapshotLighthouse: Agreement & { disagreements: Disagreement[] };
  };
  /** the command that wrote the report, to run it again */
  command: string;
  /** what the rendered page was (scripts/verdict-changes/extract.ts) */
  rendered?: "same" | "reserialized";
  /** this tree's real scans, as tests/corpus.test.ts saves them (docs/reports/corpus-verdicts.json), if there */
  scanned: Verdicts | null;
  /** the shared corpus the pages are from (shared-data.ts) */
  corpus?: "corpus" | "corpus-parser";
};

/** Where the browser-free verdicts differ from real scans of the same pages: check → pages. */
const differencesFromScans = (
  verdicts: Verdicts,
  scanned: Verdicts,
): { compared: number; by: Map<string, string[]> } => {
  const by = new Map<string, string[]>();
  let compared = 0;
  for (const [page, checks] of Object.entries(scanned)) {
    for (const [id, verdict] of Object.entries(checks)) {
      const ours = verdicts[page]?.[id];
      if (!ours) continue;
      compared++;
      if (ours.status !== verdict.status)
        by.set(id, [...(by.get(id) ?? []), `${page} (${ours.status}, scanned ${verdict.status})`]);
    }
  }
  return { compared, by };
};

const ORDER = ["fail", "warn", "skip", "pass"];

// a table cell: one line, no pipe
const cell = (text: string, max = 260): string => {
  const one = text.replace(/\s+/g, " ").replace(/\|/g, "\\|").trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
};

const count = <K>(items: readonly K[]): Map<K, number> => {
  const counts = new Map<K, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return counts;
};

/**
 * This tree's disagreements with Lighthouse by check and page, counted from the verdicts: " (Of
 * this tree's: meta-description on bbc-1, breitbart. …)", or "" when it has none.
 */
const disagreementNote = (disagreements: readonly Disagreement[]): string => {
  if (disagreements.length === 0) return "";
  const pagesByCheck = new Map<string, string[]>();
  for (const { page, check } of disagreements) pagesByCheck.set(check, [...(pagesByCheck.get(check) ?? []), page]);
  const listed = [...pagesByCheck].map(([check, pages]) => `${check} on ${pages.join(", ")}`).join("; ");
  const head = pagesByCheck.has("meta-description")
    ? " A meta-description disagreement is Chrome's parser moving a meta into <body>, which only a real render shows: packages/checks/src/seo/lighthouse-agreement.test.ts."
    : "";
  return ` (This tree's ${disagreements.length} disagreement${disagreements.length === 1 ? "" : "s"}: ${listed}.${head})`;
};

const agreement = (label: string, { agree, compared }: Agreement): string =>
  `${label}: ${agree} of ${compared} verdicts agree (${((100 * agree) / compared).toFixed(1)} %)`;

/** The verdicts whose status differs between the two versions, in catalogue order, pages in order. */
export const changesOf = (
  before: Verdicts,
  after: Verdicts,
): { changes: Change[]; compared: number; reworded: Map<string, number> } => {
  const changes: Change[] = [];
  const reworded = new Map<string, number>();
  let compared = 0;
  const checks = Object.keys(Object.values(after)[0] ?? {});
  for (const check of checks) {
    for (const page of Object.keys(after).sort()) {
      const was = before[page]?.[check];
      const now = after[page]?.[check];
      if (!was || !now) continue;
      compared++;
      if (was.status !== now.status) changes.push({ page, check, before: was, after: now });
      else if (was.description !== now.description) reworded.set(check, (reworded.get(check) ?? 0) + 1);
    }
  }
  return { changes, compared, reworded };
};

const scannedSection = (verdicts: Verdicts, scanned: Verdicts | null): string[] => {
  if (!scanned) return [];
  const { compared, by } = differencesFromScans(verdicts, scanned);
  const differing = [...by.values()].reduce((sum, pages) => sum + pages.length, 0);
  return [
    "How far these browser-free verdicts stand from real scans: against this tree's full scans through the gateway,",
    `queue and Chromium worker (\`docs/reports/corpus-verdicts.json\`, written by \`tests/corpus.test.ts\`), ${compared - differing} of ${compared}`,
    `verdicts are the same. The others (${SCANNED_DIFFERENCES}):`,
    "",
    ...[...by].map(
      ([id, pages]) =>
        `- ${id}: ${pages.length === Object.keys(scanned).length ? "every page" : `${pages.length} page${pages.length === 1 ? "" : "s"}, ${pages.join(", ")}`}.`,
    ),
    "",
  ];
};

/** docs/reports/verdict-changes.md */
export const renderReport = ({
  before,
  after,
  command,
  lighthouseChecks,
  scanned,
  rendered = "same",
  corpus = "corpus",
}: ReportInput): string => {
  const { changes, compared, reworded } = changesOf(before.verdicts, after.verdicts);
  const pages = Object.keys(after.verdicts).length;
  const checks = Object.keys(Object.values(after.verdicts)[0] ?? {});
  const byCheck = new Map<string, Change[]>();
  for (const change of changes) byCheck.set(change.check, [...(byCheck.get(change.check) ?? []), change]);
  const direction = (change: Change) => `${change.before.status} → ${change.after.status}`;
  const directions = [...count(changes.map(direction))].sort((a, b) => b[1] - a[1]);
  const better = changes.filter(
    (change) => ORDER.indexOf(change.after.status) > ORDER.indexOf(change.before.status),
  ).length;

  const lines = [
    `# Verdict changes: ${before.label} → ${after.label}`,
    "",
    `Written by \`${command}\``,
    "(`scripts/verdict-changes.ts`). Every check's verdict on every page of the",
    `real-page corpus (\`../shared/${corpus}/pages\`, shared test data outside the repository) is computed by both versions`,
    rendered === "same"
      ? "of the rules, browser-free: each page's saved HTML is its served and rendered page at"
      : "of the rules, browser-free: each page's saved HTML is its served page and, parsed and serialised again as a browser hands back its DOM, its rendered page, at",
    "`http://127.0.0.1:8080/<page>/` with no robots.txt, llms.txt or sitemap, judged at 2026-06-01T12:00Z.",
    "A verdict has changed when its status has. Why each rule changed is recorded in",
    "[docs/checks.md](../checks.md#rule-changes-and-why).",
    "",
    "## Totals",
    "",
    `- Verdicts compared: **${compared}** (${pages} pages × ${checks.length} checks).`,
    `- Changed: **${changes.length}** (${((100 * changes.length) / compared).toFixed(1)} %): ${better} toward pass or skip, ${changes.length - better} toward warn or fail.`,
    `- Same status, reworded description (evidence in every finding): ${[...reworded.values()].reduce((sum, n) => sum + n, 0)}.`,
    "",
    `Lighthouse agreement on the overlapping SEO checks (${changes.filter((change) => lighthouseChecks.includes(change.check)).length} of their verdicts changed here):`,
    "",
    ...(before.lighthouse && after.lighthouse
      ? [
          `- ${agreement(`Corpus test (\`tests/corpus.test.ts\`, real scans, quick and full), ${before.label}`, before.lighthouse)}; ${agreement(after.label, after.lighthouse)}.`,
        ]
      : []),
    `- ${agreement(`These browser-free verdicts (full scan only), ${before.label}`, before.snapshotLighthouse)}; ${agreement(after.label, after.snapshotLighthouse)}.${disagreementNote(after.snapshotLighthouse.disagreements)}`,
    "",
    ...scannedSection(after.verdicts, scanned),
    "### By check",
    "",
    "| check | changed | how | reworded, same status |",
    "|---|---|---|---|",
    ...checks
      .filter((check) => byCheck.has(check) || reworded.has(check))
      .map((check) => {
        const list = byCheck.get(check) ?? [];
        const how = [...count(list.map(direction))].map(([key, n]) => `${key}: ${n}`).join(", ");
        return `| ${check} | ${list.length} | ${how} | ${reworded.get(check) ?? 0} |`;
      }),
    "",
    "### By direction",
    "",
    "| before → after | verdicts |",
    "|---|---|",
    ...directions.map(([key, n]) => `| ${key} | ${n} |`),
    "",
    "## Every changed verdict, by check",
    "",
  ];
  for (const check of checks) {
    const list = byCheck.get(check);
    if (!list) continue;
    const reason = REASONS[check];
    lines.push(`### ${check}`, "", `${list.length} verdict${list.length === 1 ? "" : "s"} changed.`, "");
    lines.push(
      list.every((change) => commonCause(change) !== null)
        ? 'Rule change: a placeholder page (lorem ipsum, "coming soon", a CMS\'s sample text) gets one finding, from content-depth, and the checks of its content skip; every check counts words one way (docs/checks.md, "A placeholder page gets one finding" and "One word count").'
        : reason
          ? `Rule change: ${reason.rules}`
          : "Rule change: (not recorded: add it to scripts/verdict-changes/reasons.ts)",
      "",
    );
    lines.push("| page | before → after | why | after (before) |", "|---|---|---|---|");
    for (const change of list) {
      const note = NOTES[`${check} ${change.page}`];
      const cause = (commonCause(change) ?? (reason ? reason.cause(change) : "")).replace(/\.$/, "");
      const why = `${cause}${note ? `. Reviewed: ${note}` : ""}`;
      lines.push(
        `| ${change.page} | ${direction(change)} | ${cell(why, 400)} | ${cell(change.after.description)} (before: ${cell(change.before.description, 160)}) |`,
      );
    }
    lines.push("");
  }
  // the pages reviewed by hand below are the rules' own corpus's; the second corpus's review is docs/reports/review-unseen-pages.md
  if (corpus !== "corpus") {
    lines.push("The hand review of this corpus's pages: [review-unseen-pages.md](review-unseen-pages.md).", "");
    return lines.join("\n");
  }
  lines.push(
    "## Pages reviewed by hand",
    "",
    "Three pages in three languages, none of them one the rule changes were built on, read as a consultant would",
    "read their AEO and GEO verdicts: what the review changed in the rules (each with a test on the page), and what",
    "it left.",
    "",
  );
  for (const { page, fixed, left } of REVIEWED) {
    lines.push(
      `### ${page}`,
      "",
      ...fixed.map((item) => `- Fixed: ${item}`),
      ...left.map((item) => `- Left: ${item}`),
      "",
    );
  }
  lines.push("### Fixed on other pages", "", ...FIXED_ELSEWHERE.map((item) => `- ${item}`), "");
  lines.push("### Left on other pages", "", ...LEFT.map((item) => `- ${item}`), "");
  return lines.join("\n");
};
