import tags from "language-tags";

// language-tags error codes that leave a tag usable: a deprecated tag or subtag ("iw", "in")
// and a redundant script ("en-Latn") are still valid BCP 47 that browsers and crawlers read.
const TOLERATED = new Set([1, 10, 11]);

/** Why a language tag is not valid BCP 47 against the IANA subtag registry, or null when it is. */
export const languageTagProblem = (tag: string): string | null => {
  if (tag.trim() === "") return "it is empty";
  if (/\s/.test(tag.trim()) || tag.includes("_")) return "BCP 47 separates subtags with hyphens, without spaces";
  const errors = tags(tag.trim())
    .errors()
    .filter((error) => !TOLERATED.has(error.code));
  const [first] = errors;
  return first ? first.message.replace(/\.$/, "") : null;
};
