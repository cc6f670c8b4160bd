import { defineCheck } from "../check";
import { languageTagProblem } from "./language-tag";

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
  run: ({ doc }) => {
    const value = doc.documentElement?.getAttribute("lang");
    if (value === null || value === undefined || value.trim() === "") {
      return {
        status: "fail",
        description: value === null || value === undefined ? "<html> has no lang attribute." : "<html lang> is empty.",
        fix: 'Declare the page language on the root element, e.g. <html lang="en">.',
        evidence: [value ?? "missing"],
      };
    }
    const problem = languageTagProblem(value);
    if (problem) {
      return {
        status: "fail",
        description: `<html lang="${value}"> is not a valid BCP 47 language tag: ${problem}.`,
        fix: `Replace lang="${value}" with a registered tag such as "en", "en-GB" or "pt-BR" (language, then optional region, joined by a hyphen).`,
        evidence: [value],
      };
    }
    return { status: "pass", description: `The page declares its language as "${value.trim()}".`, evidence: [value] };
  },
});
