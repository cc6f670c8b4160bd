import { defineCheck } from "../check";
import { perPage } from "../lib/memo";
import type { Page } from "../page";

const NUMBER = String.raw`\d+(?:[.,]\d+)*`;
const MAGNITUDE = String.raw`(?:k|m|bn|thousand|million|billion|trillion|Tausend|Millionen|Milliarden|mil|millones|millions?|milliards?|milioni|miliardi|miljoen|miljard|milhões|bilhões)\b`;
const UNIT = String.raw`(?:km|cm|mm|m²|km²|kg|mg|g|lbs?|oz|mph|km\/h|kWh|kW|MW|GW|GB|MB|TB|ms|°C|°F|ft|mi|ha|acres?|hours?|hrs?|minutes?|mins?|seconds?|days?|weeks?|months?|years?|people|users|customers|employees|patients|students)\b`;

// A number that states a fact: 42 %, $3.5 million, 12 km, 3,400 users, 3x, in 2019.
const QUANTITY = new RegExp(
  [
    String.raw`${NUMBER}\s?(?:%|‰|percent\b|per cent\b|Prozent\b|por ciento\b|pour cent\b|per cento\b|procent\b|por cento\b)`,
    String.raw`[$€£¥₹]\s?${NUMBER}(?:\s?${MAGNITUDE})?`,
    String.raw`${NUMBER}\s?(?:USD|EUR|GBP|JPY|CHF|dollars?|euros?|pounds?)\b`,
    String.raw`${NUMBER}\s?${MAGNITUDE}`,
    String.raw`${NUMBER}\s?${UNIT}`,
    String.raw`\b\d+(?:\.\d+)?\s?(?:x|×|times)\s`,
    // grouped thousands (3,400 or 3.400) are counts, not list numbers
    String.raw`\b\d{1,3}(?:[,.]\d{3})+\b`,
    // years from 1600 to 2099, a date being a fact too
    String.raw`\b(?:1[6-9]|20)\d{2}\b`,
  ].join("|"),
  "gi",
);

/** The distinct quantitative facts of the main content, as written. */
export const quantities = perPage((page: Page): string[] => [
  ...new Set([...page.main.text.matchAll(QUANTITY)].map((match) => match[0].trim())),
]);

/**
 * Quantitative facts in the main content (GEO, Aggarwal et al. 2024: adding statistics raised
 * visibility in generative answers). Counted: numbers with %, a currency, a magnitude word
 * ("million") or a unit of measure, time or people; grouped thousands ("3,400"); multipliers
 * ("3x"); years from 1600 to 2099. Each distinct match counts once, so a repeated "2024" is one
 * fact. A heuristic: it cannot tell a statistic from a price list.
 */
export const statistics = defineCheck({
  id: "statistics",
  category: "geo",
  severity: "info",
  maxScore: 3,
  quick: false,
  title: "Content cites numbers",
  run: (page) => {
    const found = quantities(page);
    const sample = found
      .slice(0, 4)
      .map((quantity) => `"${quantity}"`)
      .join(", ");
    if (found.length >= 3)
      return {
        status: "pass",
        description: `The main content states ${found.length} quantitative facts (${sample}${found.length > 4 ? ", ..." : ""}).`,
      };
    return {
      status: found.length > 0 ? "warn" : "fail",
      description:
        found.length > 0
          ? `The main content states only ${found.length} quantitative fact${found.length === 1 ? "" : "s"} (${sample}); 3 or more is the aim (a heuristic from GEO research).`
          : "The main content states no numbers with a unit, amounts, percentages or years.",
      fix: "Back claims with concrete figures (percentages, amounts, dates, measurements) and name their source; generative answers favour quotable facts.",
    };
  },
});
