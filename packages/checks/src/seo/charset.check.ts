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

// what windows-1252 (and ISO-8859-1, which browsers read as windows-1252) makes of UTF-8's continuation bytes 0x80-0xBF
const CONTINUATION = "[\u0080-\u00BF€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]";
// a UTF-8 lead byte so read, followed by as many continuation bytes as it announces ("Ã©" for é, "â€™" for ’)
const MOJIBAKE = new RegExp(
  `[\u00C2-\u00DF]${CONTINUATION}|[\u00E0-\u00EF]${CONTINUATION}{2}|[\u00F0-\u00F4]${CONTINUATION}{3}`,
  "gu",
);
const CP1252_HIGH = "€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ";
// charsets whose every byte is one character: UTF-8's multi-byte sequences read in them as two to four characters
const SINGLE_BYTE =
  /^(?:windows-125\d|cp125\d|iso-8859-\d+|iso8859-\d+|latin-?1|l1|us-ascii|ascii|x-cp125\d|iso_8859-1)$/;

/** The bytes a windows-1252 reading of a text came from, decoded as UTF-8: what the page meant ("é" for "Ã©"). */
const asUtf8 = (text: string): string => {
  const bytes = [...text].map((char) => {
    const code = char.codePointAt(0) ?? 0;
    const high = CP1252_HIGH.indexOf(char);
    return high >= 0 ? 0x80 + high : code;
  });
  return new TextDecoder("utf-8").decode(new Uint8Array(bytes));
};

/**
 * UTF-8 bytes served under a single-byte charset: the decoded text holds three or more
 * sequences that are UTF-8 read as windows-1252 ("Ã©", "â€™"), and they make up most of its
 * characters beyond ASCII. The samples, each with what it should read.
 */
const mojibakeOf = (html: string): string[] => {
  const text = html.replace(/<script\b[\s\S]*?<\/script>|<style\b[\s\S]*?<\/style>|<[^>]*>/gi, " ");
  const found = [...text.matchAll(MOJIBAKE)].map(([sequence]) => sequence);
  if (found.length < 3) return [];
  const beyondAscii = [...text].filter((char) => (char.codePointAt(0) ?? 0) > 0x7f).length;
  const inSequences = found.reduce((sum, sequence) => sum + [...sequence].length, 0);
  if (inSequences * 2 < beyondAscii) return [];
  return [...new Set(found)].slice(0, 3).map((sequence) => `"${sequence}" (${asUtf8(sequence)})`);
};

/**
 * UTF-8 is declared where browsers read it before parsing: the Content-Type header's charset,
 * a byte order mark, or a `<meta charset>` / `http-equiv` Content-Type within the first 1,024
 * bytes of the served HTML. The header wins over the meta, as in browsers. Another charset
 * warns; none (or a meta too late in the file) fails. A single-byte charset declared for bytes
 * that are UTF-8 (mojibake: "Ã©" for é, "â€™" for ’ all through the text) fails, and the fix
 * names the declaration to change rather than asking to convert bytes that are UTF-8 already.
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
    const mojibake = declared && SINGLE_BYTE.test(declared) ? mojibakeOf(snapshot.rawHtml) : [];
    if (declared && mojibake.length > 0) {
      const declaration = bom
        ? "the byte order mark"
        : header
          ? `"Content-Type: ${snapshot.headers["content-type"]}"`
          : `<meta charset="${declared}"> (or its http-equiv Content-Type)`;
      return {
        status: "fail",
        description: `The page declares ${declared} (by ${source}) but its bytes are UTF-8, so its text reads as mojibake: ${mojibake.join(", ")}.`,
        fix: `Change the declaration ${declaration} to utf-8${header ? ' ("Content-Type: text/html; charset=utf-8")' : ' (<meta charset="utf-8">)'}; the bytes are UTF-8 already and need no conversion.`,
        evidence: [declared, source, ...mojibake],
      };
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
