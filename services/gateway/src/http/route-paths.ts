/**
 * Finds the declared routes a request path falls on, as express's routing compares paths:
 * letters in any case, trailing slashes ignored, `:name` standing for one non-empty segment.
 * The access middleware runs before express matches a route, and asks this instead.
 */

export type PathEntry<T> = { path: string; value: T };

export type PathTable<T> = {
  /** the values of the routes whose path is this one (any method) */
  at: (path: string) => T[];
  /** the values of the routes whose path is this one or a parent of it (`/keys` for `/keys/x/y`) */
  atOrUnder: (path: string) => T[];
};

const segmentsOf = (path: string): string[] => path.toLowerCase().replace(/\/+$/, "").split("/").slice(1);

const fits = (pattern: readonly string[], segments: readonly string[]): boolean =>
  pattern.every((part, i) => (part.startsWith(":") ? (segments[i] ?? "") !== "" : part === segments[i]));

export const pathTable = <T>(entries: readonly PathEntry<T>[]): PathTable<T> => {
  const patterns = entries.map((entry) => ({ segments: segmentsOf(entry.path), value: entry.value }));
  return {
    at: (path) => {
      const segments = segmentsOf(path);
      return patterns
        .filter((pattern) => pattern.segments.length === segments.length && fits(pattern.segments, segments))
        .map((pattern) => pattern.value);
    },
    atOrUnder: (path) => {
      const segments = segmentsOf(path);
      return patterns
        .filter((pattern) => pattern.segments.length <= segments.length && fits(pattern.segments, segments))
        .map((pattern) => pattern.value);
    },
  };
};
