import { defineCheck } from "../check";
import { perPage } from "../lib/memo";
import type { Page } from "../page";

// A number with a unit that makes it a fact: 42 %, $3.5 million, 12 km, 2019, 3,400 users...
const QUANTITY = new RegExp(
  [
    String.raw`\d[\d,.]*\s?(?:%|‰|percent\b|per cent\b|prozent\b|por ciento\b|pour cent\b)`,
    String.raw`[$€£¥₹]\s?\d[\d,.]*(?:\s?(?:k|m|bn|million|billion|trillion)\b)?`,
    String.raw`\d[\d,.]*\s?(?:USD|EUR|GBP|JPY|dollars?|euros?|pounds?)\b`,
    String.raw`\d[\d,.]*\s?(?:million|billion|trillion|thousand|Millionen|Milliarden|millones|millions|milliards)\b`,
    String.raw`\d[\d,.]*\s?(?:km|cm|mm|kg|mg|lb|lbs|oz|mph|km/h|kWh|MW|GW|GB|MB|TB|ms|°C|°F|ft|mi|hours?|minutes?|seconds?|days?|weeks?|months?|years?)\b`,
    String.raw`\b(?:1[6-9]|20)\d{2}\b`,
  ].join("|"),
  "gi",
);

const quantitiesIn = perPage((page: Page): string[] => [...page.main.text.matchAll(QUANTITY)].map((m) => m[0].trim()));

/**
 * Quantitative facts in the main content (GEO, Aggarwal et al. 2024: adding statistics raised
 * visibility in generative answers). Counted: numbers with %, a currency, a magnitude word or a
 * unit, and years (1600 to 2099). Distinct matches count once. A heuristic.
 */
export const statistics = defineCheck({
  id: "statistics",
  category: "geo",
  severity: "info",
  maxScore: 3,
  quick: false,
  title: "Content cites numbers",
  run: (page) => {
    const found = [...new Set(quantitiesIn(page))];
    const sample = found
      .slice(0, 4)
      .map((q) => `"${q}"`)
      .join(", ");
    if (found.length >= 3)
      return {
        status: "pass",
        description: `The main content has ${found.length} quantitative facts (${sample}, ...).`,
      };
    return {
      status: found.length > 0 ? "warn" : "fail",
      description:
        found.length > 0
          ? `The main content has only ${found.length} quantitative fact${found.length === 1 ? "" : "s"} (${sample}).`
          : "The main content states no numbers, percentages, amounts or dates.",
      fix: "Back claims with concrete figures (percentages, amounts, dates, measurements) and name their source; generative answers favour quotable facts.",
    };
  },
});

/**
 * Links from the main content to other sites (GEO: citing sources raised visibility). Other
 * domains by registrable-ish host: "www." is ignored, subdomains of the page's own host are
 * not "other". Counted by distinct host.
 */
export const citationsOutbound = defineCheck({
  id: "citations-outbound",
  category: "geo",
  severity: "info",
  maxScore: 3,
  quick: false,
  title: "Content cites other sources",
  run: (page) => {
    const own = page.finalUrl.hostname.replace(/^www\./, "");
    const hosts = new Set<string>();
    for (const anchor of page.main.root.querySelectorAll("a[href]")) {
      let url: URL;
      try {
        url = new URL(anchor.getAttribute("href") ?? "", page.finalUrl);
      } catch {
        continue;
      }
      if (url.protocol !== "http:" && url.protocol !== "https:") continue;
      const host = url.hostname.replace(/^www\./, "");
      if (host === own || host.endsWith(`.${own}`) || own.endsWith(`.${host}`)) continue;
      hosts.add(host);
    }
    const list = [...hosts].slice(0, 4).join(", ");
    if (hosts.size >= 2)
      return { status: "pass", description: `The main content links to ${hosts.size} other sites (${list}).` };
    return {
      status: hosts.size === 1 ? "warn" : "fail",
      description:
        hosts.size === 1
          ? `The main content links to one other site (${list}).`
          : "The main content links to no other site.",
      fix: "Cite your sources: link the studies, data and primary documents your claims rest on.",
    };
  },
});

// "…" said Jane Doe / according to Jane / — Jane Doe
const ATTRIBUTED =
  /["“«„][^"”»“]{20,}["”»“]\s*,?\s*(?:said|says|wrote|writes|explained|added|noted|told)\b|\baccording to [A-Z][a-z]+/;

/**
 * A quotation in the main content (GEO: quotation addition raised visibility most): a
 * `<blockquote>` or `<q>` with text, or a quoted sentence attributed with "said"/"according to".
 * Pull quotes in blockquotes count: they are quotations to an extractor too.
 */
export const quotations = defineCheck({
  id: "quotations",
  category: "geo",
  severity: "info",
  maxScore: 2,
  quick: false,
  title: "Content quotes someone",
  run: (page) => {
    const elements = [...page.main.root.querySelectorAll("blockquote, q")].filter(
      (element) => (element.textContent ?? "").trim().length > 0,
    );
    if (elements.length > 0) {
      return {
        status: "pass",
        description: `The main content has ${elements.length} quotation${elements.length === 1 ? "" : "s"} in <blockquote>/<q>.`,
      };
    }
    if (ATTRIBUTED.test(page.main.text))
      return { status: "pass", description: "The main content quotes someone by name." };
    return {
      status: "fail",
      description: "The main content quotes no one (no <blockquote>, <q> or attributed quote).",
      fix: "Quote an expert or a primary source, in a <blockquote> or <q> with the speaker named.",
    };
  },
});
