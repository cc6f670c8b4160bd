/**
 * Content negotiation on `Accept` (RFC 9110 §12.5.1), for an endpoint that serves a few media
 * types. Each range's weight is its `q` (1 when absent; 0 means "not this"); a type takes the
 * weight of the most specific range that matches it (`text/csv` over `text/*` over `*\/*`).
 * Parameters other than `q` (`charset=utf-8`, `header=present`) do not narrow a range: every
 * type here is served in UTF-8 with its usual parameters. Ties go to the type whose range the
 * client named first, then to the server's order.
 */

type Range = { type: string; subtype: string; q: number; position: number };

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/** Splits on a separator outside quoted strings. */
const splitOutsideQuotes = (value: string, separator: string): string[] => {
  const parts: string[] = [];
  let current = "";
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const char = value[i] as string;
    if (quoted && char === "\\") {
      current += char + (value[i + 1] ?? "");
      i++;
      continue;
    }
    if (char === '"') quoted = !quoted;
    if (char === separator && !quoted) {
      parts.push(current);
      current = "";
      continue;
    }
    current += char;
  }
  parts.push(current);
  return parts;
};

/** The well-formed ranges of an Accept header, in order; malformed ones are left out. */
export const parseAccept = (header: string): Range[] => {
  const ranges: Range[] = [];
  for (const [position, part] of splitOutsideQuotes(header, ",").entries()) {
    const [mediaRange = "", ...parameters] = splitOutsideQuotes(part, ";").map((piece) => piece.trim());
    const [type = "", subtype = "", extra] = mediaRange.toLowerCase().split("/");
    if (extra !== undefined || !TOKEN.test(type) || !TOKEN.test(subtype)) continue;
    if (type === "*" && subtype !== "*") continue;
    let q = 1;
    let valid = true;
    for (const parameter of parameters) {
      const [name = "", value = ""] = parameter.split("=").map((piece) => piece.trim());
      if (name.toLowerCase() !== "q") continue;
      if (!QVALUE.test(value)) valid = false;
      else q = Number(value);
    }
    if (valid) ranges.push({ type, subtype, q, position });
  }
  return ranges;
};

const specificity = (range: Range, type: string, subtype: string): number => {
  if (range.type === type && range.subtype === subtype) return 2;
  if (range.type === type && range.subtype === "*") return 1;
  if (range.type === "*") return 0;
  return -1;
};

/**
 * The served type the client prefers, from `served` in the server's order of preference; the
 * first when there is no Accept (or none that can be read); null when the client accepts none.
 */
export const preferredType = (header: string | undefined, served: readonly string[]): string | null => {
  const ranges = header === undefined ? [] : parseAccept(header);
  if (ranges.length === 0) return served[0] ?? null;
  let best: { type: string; q: number; specificity: number; position: number; order: number } | null = null;
  for (const [order, candidate] of served.entries()) {
    const [type = "", subtype = ""] = candidate.toLowerCase().split("/");
    let match: Range | null = null;
    let matchSpecificity = -1;
    for (const range of ranges) {
      const s = specificity(range, type, subtype);
      if (s > matchSpecificity || (s === matchSpecificity && match && range.position < match.position)) {
        match = range;
        matchSpecificity = s;
      }
    }
    if (!match || matchSpecificity < 0 || match.q === 0) continue;
    const entry = { type: candidate, q: match.q, specificity: matchSpecificity, position: match.position, order };
    if (
      !best ||
      entry.q > best.q ||
      (entry.q === best.q &&
        (entry.specificity > best.specificity ||
          (entry.specificity === best.specificity && entry.position < best.position)))
    ) {
      best = entry;
    }
  }
  return best?.type ?? null;
};
