/**
 * The preferences of RFC 7240 `Prefer` headers: `respond-async`, `wait=10`, ... Names are
 * case-insensitive; several headers and comma-separated lists both count; parameters after
 * `;` are dropped; a quoted value is unquoted.
 */
export const parsePrefer = (header: string | readonly string[] | undefined): Map<string, string> => {
  const preferences = new Map<string, string>();
  const values = header === undefined ? [] : typeof header === "string" ? [header] : header;
  for (const value of values) {
    for (const item of value.split(",")) {
      const [preference] = item.split(";");
      const [rawName, ...rest] = (preference ?? "").split("=");
      const name = rawName?.trim().toLowerCase();
      if (!name) continue;
      const raw = rest.join("=").trim();
      if (!preferences.has(name)) preferences.set(name, raw.replace(/^"(.*)"$/, "$1"));
    }
  }
  return preferences;
};
