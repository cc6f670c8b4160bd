import { isContent } from "../aeo/main-dom";
import { defineCheck } from "../check";
import { foldWhitespace } from "../page";

const SPEECH =
  "(?:said|says|wrote|writes|explained|explains|added|adds|noted|notes|told|argued|argues|recalled|recalls|asked)";
const NAME = String.raw`(?:[A-Z][\p{L}'’.-]+)(?:\s+[A-Z][\p{L}'’.-]+){0,3}`;

/**
 * A quoted passage of 20 or more characters attributed to someone: `"…," said Jane Doe`,
 * `"…," Jane Doe said`, `"…" — Jane Doe`, or "according to Jane Doe" (a named source).
 */
const ATTRIBUTED = new RegExp(
  [
    String.raw`["“«„][^"”»“]{20,}["”»“]\s*,?\s*(?:${SPEECH}\s+${NAME}|${NAME}\s+${SPEECH}|[—–-]\s*${NAME})`,
    String.raw`\b[Aa]ccording to ${NAME}`,
  ].join("|"),
  "u",
);

/**
 * A quotation in the main content (GEO, Aggarwal et al. 2024: quotation addition raised
 * visibility in generative answers the most): a `<blockquote>` or `<q>` with text, or a quoted
 * passage attributed to a named person or source in the text. Pull quotes in `<blockquote>`
 * count: an extractor reads them as quotations too. A heuristic.
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
      (element) => foldWhitespace(element.textContent ?? "") !== "" && isContent(page, element),
    );
    const [first] = elements;
    if (first) {
      const text = foldWhitespace(first.textContent ?? "");
      return {
        status: "pass",
        description: `The main content has ${elements.length} quotation${elements.length === 1 ? "" : "s"} in <blockquote> or <q>, the first: "${text.length > 80 ? `${text.slice(0, 77)}...` : text}".`,
      };
    }
    const attributed = ATTRIBUTED.exec(page.main.text);
    if (attributed) {
      const text = attributed[0];
      return {
        status: "pass",
        description: `The main content quotes a named source: ${text.length > 100 ? `${text.slice(0, 97)}...` : text}.`,
      };
    }
    return {
      status: "fail",
      description:
        "The main content quotes no one (no <blockquote>, no <q>, no attributed quote); quotations are a heuristic signal for AI answers.",
      fix: "Quote an expert or a primary source, in a <blockquote> or <q>, and name the speaker.",
    };
  },
});
