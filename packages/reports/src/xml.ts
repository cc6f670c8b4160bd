/**
 * Characters XML 1.0 cannot carry at all (C0 controls but tab, LF and CR; U+FFFE, U+FFFF; lone
 * surrogates): page text quoted in a finding may hold them, and one would make the document
 * unreadable, so each becomes U+FFFD.
 */
const NOT_XML =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters being removed
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const clean = (value: string): string => value.replace(NOT_XML, "\uFFFD");

/**
 * Text content: `&` and `<` escaped, `>` so that `]]>` never appears, and CR as a character
 * reference, since a parser reads a literal CR as a line feed (XML 1.0 §2.11).
 */
export const xmlText = (value: string): string =>
  clean(value).replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll("\r", "&#13;");

/**
 * An attribute value for double quotes. Tab and LF are written as character references too,
 * since a parser turns them into spaces when they appear literally (XML 1.0 §3.3.3).
 */
export const xmlAttribute = (value: string): string =>
  xmlText(value).replaceAll('"', "&quot;").replaceAll("\t", "&#9;").replaceAll("\n", "&#10;");

/** `name="value"` pairs, in order, skipping undefined values. */
export const attributes = (values: Record<string, string | number | undefined>): string =>
  Object.entries(values)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([name, value]) => ` ${name}="${xmlAttribute(String(value))}"`)
    .join("");
