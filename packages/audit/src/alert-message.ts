import type { RegressionAlert, RegressionReason } from "@scan/contract";

/** What a person reads: a mail's subject and text, and a Slack message's fallback text and blocks. */
export type AlertMessage = {
  subject: string;
  text: string;
  slack: { text: string; blocks: SlackBlock[] };
};

type SlackText = { type: "mrkdwn" | "plain_text"; text: string };
export type SlackBlock =
  | { type: "header"; text: SlackText }
  | { type: "section"; text: SlackText }
  | { type: "context"; elements: SlackText[] };

/** pages named per failing check in a message; the rest are counted */
const PAGES_SHOWN = 5;
/** Slack refuses a section's text past 3,000 characters */
const SLACK_SECTION_MAX = 3_000;

const SCORE_NAMES = { overall: "Overall", seo: "SEO", aeo: "AEO", geo: "GEO" } as const;

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** The site as people name it: its host, and its port when it has one. */
export const siteName = (siteUrl: string): string => {
  try {
    return new URL(siteUrl).host;
  } catch {
    return siteUrl;
  }
};

/** Where a person opens the audit: the site's page in the dashboard, with the audit open. */
export const auditLink = (dashboardUrl: string, alert: Pick<RegressionAlert, "site_id" | "audit_id">): string =>
  `${dashboardUrl.replace(/\/+$/, "")}/sites/${encodeURIComponent(alert.site_id)}?audit=${encodeURIComponent(alert.audit_id)}`;

/** One line per thing that got worse, from what to what, with how many pages. */
const reasonLine = (reason: RegressionReason): string => {
  switch (reason.kind) {
    case "score_drop":
      return `Overall score fell ${plural(reason.points, "point")}: ${reason.before} → ${reason.after}`;
    case "grade_lower":
      return `Grade fell: ${reason.before} → ${reason.after}`;
    case "check_failing": {
      const where = reason.scope === "site" ? "site check" : "page check";
      const before = reason.scope === "site" ? "passed" : "passed on every page";
      const count = reason.pages.length;
      // page lists are capped at 50 when stored: "50 or more" is the honest count then
      const pages = count >= 50 ? "50 or more pages" : plural(count, "page");
      return `${reason.title} (${where} ${reason.check}): ${before} before, fails now on ${pages}`;
    }
  }
};

const pageLines = (reason: RegressionReason): string[] => {
  if (reason.kind !== "check_failing" || reason.pages.length === 0) return [];
  const shown = reason.pages.slice(0, PAGES_SHOWN).map((page) => `    ${page}`);
  const more = reason.pages.length - PAGES_SHOWN;
  return more > 0 ? [...shown, `    and ${plural(more, "more page")}`] : shown;
};

/** The scores that moved, before → after, in the order people read them. */
const scoreLine = (alert: RegressionAlert): string =>
  (Object.keys(SCORE_NAMES) as Array<keyof typeof SCORE_NAMES>)
    .map((key) => {
      const before = alert.scores.before[key];
      const after = alert.scores.after[key];
      return before === after ? `${SCORE_NAMES[key]} ${after}` : `${SCORE_NAMES[key]} ${before} → ${after}`;
    })
    .join(" · ");

const escapeSlack = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/**
 * The regression alert as a person reads it, by mail or in Slack: the subject names the site,
 * the body says what got worse (scores, grade, checks, from what to what and on how many
 * pages) and links to the audit in the dashboard.
 */
export const alertMessage = (alert: RegressionAlert, dashboardUrl: string): AlertMessage => {
  const site = siteName(alert.site_url);
  const link = auditLink(dashboardUrl, alert);
  const worse = plural(alert.reasons.length, "thing");
  const mode = alert.mode === "quick" ? "quick audit" : "full audit";
  const subject = `${site} got worse: ${worse} since the last ${mode}`;
  const reasons = alert.reasons.map(reasonLine);
  const text = [
    `The ${mode} of ${alert.site_url} found the site worse than its previous ${mode}.`,
    "",
    `Scores: ${scoreLine(alert)}`,
    `Grade: ${alert.grade.before === alert.grade.after ? alert.grade.after : `${alert.grade.before} → ${alert.grade.after}`}`,
    "",
    "What got worse:",
    ...alert.reasons.flatMap((reason, i) => [`  - ${reasons[i]}`, ...pageLines(reason)]),
    "",
    `Open the audit: ${link}`,
    "",
    "You get this because the site's audit schedule sends regression alerts here; change it on the site's Schedule tab.",
  ].join("\n");

  const reasonBlocks = alert.reasons.map((reason, i): SlackBlock => {
    const pages =
      reason.kind === "check_failing" && reason.pages.length > 0
        ? `\n${reason.pages
            .slice(0, PAGES_SHOWN)
            .map((page) => `• ${escapeSlack(page)}`)
            .join(
              "\n",
            )}${reason.pages.length > PAGES_SHOWN ? `\n_and ${plural(reason.pages.length - PAGES_SHOWN, "more page")}_` : ""}`
        : "";
    return {
      type: "section",
      text: { type: "mrkdwn", text: clip(`*${escapeSlack(reasons[i] ?? "")}*${pages}`, SLACK_SECTION_MAX) },
    };
  });
  const slackText = `${subject}. Open the audit: ${link}`;
  const blocks: SlackBlock[] = [
    { type: "header", text: { type: "plain_text", text: clip(subject, 150) } },
    { type: "section", text: { type: "mrkdwn", text: escapeSlack(`Scores: ${scoreLine(alert)}`) } },
    ...reasonBlocks,
    { type: "section", text: { type: "mrkdwn", text: `<${link}|Open the audit in the dashboard>` } },
    { type: "context", elements: [{ type: "mrkdwn", text: escapeSlack(`${alert.site_url} · ${mode}`) }] },
  ];
  return { subject, text, slack: { text: slackText, blocks } };
};
