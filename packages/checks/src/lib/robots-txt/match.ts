import { utf8Binary } from "./bytes";
import type { Group, RobotsTxt, Rule } from "./parse";

/** A pattern cut at its stars once, so that matching allocates nothing. */
type CompiledPattern = { first: string; middle: string[]; last: string | null; anchored: boolean };

const compile = (pattern: string): CompiledPattern => {
  const anchored = pattern.endsWith("$");
  const segments = (anchored ? pattern.slice(0, -1) : pattern).split("*");
  const first = segments[0] ?? "";
  if (segments.length === 1) return { first, middle: [], last: null, anchored };
  return { first, middle: segments.slice(1, -1), last: segments[segments.length - 1] ?? "", anchored };
};

/**
 * Whether a compiled pattern matches a path, anchored at the path's start: `*` matches any
 * run of octets, `$` only at the very end of the pattern anchors it at the path's end
 * (elsewhere it is a plain "$"). Segments between stars are matched leftmost-first, which
 * finds a match whenever one exists, in linear time.
 */
const matchesCompiled = (path: string, { first, middle, last, anchored }: CompiledPattern): boolean => {
  if (!path.startsWith(first)) return false;
  if (last === null) return anchored ? path.length === first.length : true;
  let position = first.length;
  for (const segment of middle) {
    const found = path.indexOf(segment, position);
    if (found === -1) return false;
    position = found + segment.length;
  }
  if (anchored) return path.length - last.length >= position && path.endsWith(last);
  return path.indexOf(last, position) !== -1;
};

export const patternMatches = (path: string, pattern: string): boolean => matchesCompiled(path, compile(pattern));

/** A rule as the matcher weighs it: Google's priority is the pattern's length in octets. */
type WeightedRule = { rule: Rule; pattern: CompiledPattern; priority: number };

/**
 * Google: an Allow of ".../index.htm..." that does not match also allows its directory alone,
 * as the pattern ".../$" (robots.cc, HandleAllow).
 */
const indexFallback = (pattern: string): string | null => {
  const slash = pattern.lastIndexOf("/");
  if (slash === -1 || !pattern.startsWith("/index.htm", slash)) return null;
  return `${pattern.slice(0, slash + 1)}$`;
};

const weigh = (rules: readonly Rule[]): WeightedRule[] => {
  const weighted: WeightedRule[] = [];
  for (const rule of rules) {
    // an empty pattern matches with priority 0, which never decides anything
    if (rule.pattern === "") continue;
    weighted.push({ rule, pattern: compile(rule.pattern), priority: rule.pattern.length });
    const fallback = rule.allow ? indexFallback(rule.pattern) : null;
    // when the rule itself matches, its longer pattern outweighs the fallback, so both can stand
    if (fallback) weighted.push({ rule, pattern: compile(fallback), priority: fallback.length });
  }
  // the first match in this order decides: the longest pattern, and Allow on a tie
  return weighted.sort((a, b) => b.priority - a.priority || Number(b.rule.allow) - Number(a.rule.allow));
};

export type RobotsAnswer = {
  allowed: boolean;
  /** the rule that decided, if one did (no rule matching means allowed) */
  rule: Rule | null;
  /** the agent has a group of its own; else the `*` groups applied, if any */
  ownGroup: boolean;
};

const asciiLower = (text: string): string => text.replace(/[A-Z]+/g, (run) => run.toLowerCase());

/**
 * Answers questions on one parsed robots.txt as Google's RobotsMatcher does: the rules of
 * every group naming the agent's product token (case-insensitive), else of every `*` group;
 * the longest matching pattern wins, Allow on a tie; no match means allowed.
 */
export class RobotsMatcher {
  private readonly byAgent = new Map<string, { rules: WeightedRule[]; ownGroup: boolean }>();

  constructor(private readonly groups: readonly Group[]) {}

  static of(robots: RobotsTxt): RobotsMatcher {
    return new RobotsMatcher(robots.groups);
  }

  private rulesFor(agent: string) {
    const key = asciiLower(agent);
    const known = this.byAgent.get(key);
    if (known) return known;
    const own: Rule[] = [];
    const global: Rule[] = [];
    let ownGroup = false;
    for (const group of this.groups) {
      if (group.agents.some((line) => !line.global && line.token === key)) {
        ownGroup = true;
        own.push(...group.rules);
      } else if (group.agents.some((line) => line.global)) {
        global.push(...group.rules);
      }
    }
    const entry = { rules: weigh(ownGroup ? own : global), ownGroup };
    this.byAgent.set(key, entry);
    return entry;
  }

  /** `path` is the URL's path and query, %-encoded, as a binary string (see pathOfUrl, googlePathOf). */
  answer(agent: string, path: string): RobotsAnswer {
    const { rules, ownGroup } = this.rulesFor(agent);
    for (const weighted of rules) {
      if (matchesCompiled(path, weighted.pattern)) {
        return { allowed: weighted.rule.allow, rule: weighted.rule, ownGroup };
      }
    }
    return { allowed: true, rule: null, ownGroup };
  }
}

/**
 * The path, params and query of a URL string, as Google's GetPathParamsQuery extracts it
 * (robots.cc): scheme and authority removed, fragment dropped, always starting with "/".
 * Google expects the URL already %-encoded; nothing is encoded here.
 */
export const googlePathOf = (url: string): string => {
  const searchStart = url.startsWith("//") ? 2 : 0;
  const firstOf = (chars: string, from: number): number => {
    for (let index = from; index < url.length; index++) if (chars.includes(url[index] as string)) return index;
    return -1;
  };
  const earlyPath = firstOf("/?;", searchStart);
  let protocolEnd = url.indexOf("://", searchStart);
  if (earlyPath !== -1 && (protocolEnd === -1 || earlyPath < protocolEnd)) protocolEnd = -1;
  protocolEnd = protocolEnd === -1 ? searchStart : protocolEnd + 3;
  const pathStart = firstOf("/?;", protocolEnd);
  if (pathStart === -1) return "/";
  const hash = url.indexOf("#", searchStart);
  if (hash !== -1 && hash < pathStart) return "/";
  const path = url.slice(pathStart, hash === -1 ? url.length : hash);
  return utf8Binary(url[pathStart] === "/" ? path : `/${path}`);
};

/**
 * The path and query of a URL as a crawler requests it: the WHATWG serialization (non-ASCII
 * %-encoded as UTF-8), every %xx upper-cased as Google writes escapes in rules.
 */
export const pathOfUrl = (url: URL): string =>
  utf8Binary(`${url.pathname}${url.search}`.replace(/%[0-9a-fA-F]{2}/g, (sequence) => sequence.toUpperCase()));
