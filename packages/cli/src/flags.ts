/**
 * The assertion flags as entries of an assertions map, checked afterwards like the config
 * file's: `--min-score [area=]N`, `--min-grade G`, `--require-check id[,id]` (each an `error`),
 * and `--assert key=level[:value]` for any level and key.
 */

const number = (value: string): number | string => (/^\d+(\.\d+)?$/.test(value) ? Number(value) : value);

export class FlagError extends Error {}

export const assertionFlags = ({
  minScore = [],
  minGrade,
  requireCheck = [],
  assert = [],
}: {
  minScore?: string[];
  minGrade?: string;
  requireCheck?: string[];
  assert?: string[];
}): Record<string, unknown> => {
  const entries: Record<string, unknown> = {};
  for (const value of minScore) {
    const [area, score] = value.includes("=") ? value.split("=", 2) : ["overall", value];
    entries[`categories:${area}`] = ["error", { minScore: number(score ?? "") }];
  }
  if (minGrade !== undefined) entries.grade = ["error", { minGrade }];
  for (const ids of requireCheck) {
    for (const id of ids.split(",").map((part) => part.trim())) if (id) entries[id] = "error";
  }
  for (const value of assert) {
    const match = /^([^=]+)=(off|warn|error)(?::(.+))?$/.exec(value);
    if (!match)
      throw new FlagError(
        `--assert ${value}: write key=level or key=level:value, e.g. categories:seo=error:80, grade=warn:B, title=error`,
      );
    const [, key = "", level, threshold] = match;
    if (threshold === undefined) entries[key] = level;
    else if (key === "grade") entries[key] = [level, { minGrade: threshold }];
    else entries[key] = [level, { minScore: number(threshold) }];
  }
  return entries;
};
