/**
 * Runs `work` on every item with at most `limit` of them under way at once, and answers the
 * results in the items' order. A sweep over a page of rows uses it so that it never asks the
 * database pool for more connections than it can spare: on a busy machine a burst of hundreds
 * of queries at once waits past the pool's limit and fails rows that would have been served.
 */
export const atMost = async <T, R>(
  items: ReadonlyArray<T>,
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> => {
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`atMost needs a whole limit of 1 or more, got ${limit}`);
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
};
