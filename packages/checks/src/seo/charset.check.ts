import { defineCheck } from "../check";

// the WHATWG Encoding Standard's labels for UTF-8
const UTF8_LABELS = new Set([
  "utf-8",
  "utf8",
  "unicode-1-1-utf-8",
  "unicode11utf8",
  "unicode20utf8",
  "x-unicode20utf8",
]);

const charsetParam = (contentType: string | undefined): string | null => {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? "");
  return match?.[1]?.toLowerCase() ?? null;
};

/** The first 1,024 bytes of the served HTML, where browsers look for a charset declaration. */
const prescanWindow = (html: string): string => {
  const bytes = new TextEncoder().encode(html.slice(0, 1024));
  return new TextDecoder().decode(bytes.slice(0, 1024));
};

const metaCharset = (html: string): string | null => {
  for (const [tag] of html.matchAll(/<meta\b[^>]*>/gi)) {
    const direct = /\scharset\s*=\s*["']?([^"'\s/>;]+)/i.exec(tag);
    if (direct?.[1]) return direct[1].toLowerCase();
    if (/http-equiv\s*=\s*["']?content-type/i.test(tag)) {
      const content = /\scontent\s*=\s*(?:"([^"]*)"|'([^']*)')/i.exec(tag);
      // HTML's "extracting a character encoding from a meta element": charset= anywhere in content
      const declared = /charset\s*=\s*["']?([^"';\s]+)/i.exec(content?.[1] ?? content?.[2] ?? "");
      if (declared?.[1]) return declared[1].toLowerCase();
    }
  }
  return null;
};

/**
 * UTF-8 is declared where browsers read it before parsing: the Content-Type header's charset,
 * a byte order mark, or a `<meta charset>` / `http-equiv` Content-Type within the first 1,024
 * bytes of the served HTML. The header wins over the meta, as in browsers. Another charset
 * warns; none (or a meta too late in the file) fails.
 */
export const charset = defineCheck({
  id: "charset",
  category: "seo",
  severity: "info",
  maxScore: 2,
  quick: false,
  title: "Character encoding is declared as UTF-8",
  run: ({ snapshot }) => {
    const fix = 'Send "Content-Type: text/html; charset=utf-8" and put <meta charset="utf-8"> first in the <head>.';
    const header = charsetParam(snapshot.headers["content-type"]);
    const bom = snapshot.rawHtml.startsWith("\uFEFF");
    const early = metaCharset(prescanWindow(snapshot.rawHtml));
    const declared = bom ? "utf-8" : (header ?? early);
    const source = bom ? "a byte order mark" : header ? "the Content-Type header" : "a <meta> in the first 1,024 bytes";
    if (declared && UTF8_LABELS.has(declared)) {
      return { status: "pass", description: `UTF-8 is declared by ${source}.` };
    }
    if (declared) {
      return {
        status: "warn",
        description: `The page declares the ${declared} encoding (by ${source}), not UTF-8.`,
        fix: `Convert the page from ${declared} to UTF-8 and declare it in the Content-Type header and <meta charset>.`,
        evidence: [declared, source],
      };
    }
    const late = metaCharset(snapshot.rawHtml);
    return {
      status: "fail",
      description: late
        ? `The <meta> declaring ${late} comes after the first 1,024 bytes, too late for browsers to use it.`
        : "The page declares no character encoding; browsers must guess it.",
      fix: late
        ? `Move <meta charset="${late}"> to the very start of the <head> (and make it utf-8), or ${fix.charAt(0).toLowerCase()}${fix.slice(1)}`
        : fix,
      evidence: [late ?? ""],
    };
  },
});
