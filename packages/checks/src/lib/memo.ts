import type { Page } from "../page";

/**
 * Computes something once per page and shares it among the checks of one scan
 * (several checks read the same robots.txt, JSON-LD or directives).
 */
export const perPage = <T>(compute: (page: Page) => T): ((page: Page) => T) => {
  const cache = new WeakMap<Page, T>();
  return (page) => {
    if (cache.has(page)) return cache.get(page) as T;
    const value = compute(page);
    cache.set(page, value);
    return value;
  };
};
