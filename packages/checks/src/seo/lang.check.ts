import { defineCheck } from "../check";
import { languageTagProblem } from "./language-tag";
import { pageLanguage } from "./page-language";

/**
 * `<html lang>` holds a BCP 47 tag valid against the IANA subtag registry (language-tags).
 * Deprecated but registered tags ("iw") and redundant scripts ("en-Latn") pass; "en_US",
 * unknown codes and malformed tags fail.
 */
export const lang = defineCheck({
  id: "lang",
  category: "seo",
  severity: "warning",
  maxScore: 3,
  quick: true,
  title: "Page declares its language",
  run: (page) => {
    const value = page.doc.documentElement?.getAttribute("lang");
    if (value === null || value === undefined || value.trim() === "") {
      const guess = pageLanguage(page);
      return {
        status: "fail",
        description: value === null || value === undefined ? "<html> has no lang attribute." : "<html lang> is empty.",
        fix: guess
          ? `Declare the page's language on the root element: <html lang="${guess.tag}"> (${guess.reason}).`
          : 'Declare the page\'s language on the root element as a BCP 47 tag (<html lang="…">, e.g. de for German, pt-BR for Brazilian Portuguese): its text does not tell which language it is, so its owner must say.',
        evidence: [value ?? "missing"],
      };
    }
    const problem = languageTagProblem(value);
    if (problem) {
      const mended = value.trim().replace(/_/g, "-").replace(/\s+/g, "");
      const guess =
        languageTagProblem(mended) === null
          ? { tag: mended, reason: "the same tag with a hyphen" }
          : pageLanguage(page);
      return {
        status: "fail",
        description: `<html lang="${value}"> is not a valid BCP 47 language tag: ${problem}.`,
        fix: guess
          ? `Replace lang="${value}" with lang="${guess.tag}" (${guess.reason}).`
          : `Replace lang="${value}" with the registered tag of the page's language (language, then optional region, joined by a hyphen: "de", "pt-BR"); its text does not tell which, so its owner must say.`,
        evidence: [value],
      };
    }
    return { status: "pass", description: `The page declares its language as "${value.trim()}".`, evidence: [value] };
  },
});
