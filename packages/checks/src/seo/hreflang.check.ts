import { defineCheck } from "../check";
import { clip } from "../lib/text";
import { linkRefs } from "./head";
import { languageTagProblem } from "./language-tag";

/**
 * Lighthouse `hreflang`: every `rel=alternate` link with an hreflang, in the head or a Link
 * header, has a valid language code (or `x-default`) and a fully qualified http(s) href.
 * Lighthouse checks only the primary language subtag; we validate the whole tag against the
 * IANA registry, because Google ignores annotations with a bad region too ("en-UK", "en_US").
 * A page without hreflang annotations skips (Lighthouse passes it; there is nothing to judge).
 */
export const hreflang = defineCheck({
  id: "hreflang",
  category: "seo",
  severity: "info",
  maxScore: 2,
  quick: false,
  title: "hreflang annotations are valid",
  run: (page) => {
    const links = linkRefs(page).filter(
      (link) => link.source !== "body" && link.rels.includes("alternate") && link.hreflang !== "",
    );
    if (links.length === 0) return { status: "skip", description: "The page has no hreflang annotations." };
    const problems: string[] = [];
    for (const link of links) {
      const code = link.hreflang;
      const langProblem = code.toLowerCase() === "x-default" ? null : languageTagProblem(code);
      if (langProblem) problems.push(`"${code}" is not a valid language code (${langProblem})`);
      if (!/^https?:/i.test(link.hrefRaw)) {
        problems.push(`the href for "${code}" is not an absolute http(s) URL ("${clip(link.hrefRaw, 50)}")`);
      }
    }
    if (problems.length > 0) {
      return {
        status: "fail",
        description: `${problems.length} hreflang problem${problems.length === 1 ? "" : "s"}: ${problems.slice(0, 3).join("; ")}${problems.length > 3 ? "; ..." : ""}.`,
        fix: `Use language codes like "en", "en-GB" or "x-default", and full URLs (https://...) in each alternate link, starting with ${problems[0]}.`,
        evidence: problems,
      };
    }
    const codes = [...new Set(links.map((link) => link.hreflang))];
    return {
      status: "pass",
      description: `${links.length} hreflang annotations, all valid: ${codes.slice(0, 8).join(", ")}${codes.length > 8 ? ", ..." : ""}.`,
    };
  },
});
