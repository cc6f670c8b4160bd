/** Runs at most `limit` tasks at once, the others in the order they came (0: no limit). */
export const turns = (limit: number): (<T>(task: () => Promise<T>) => Promise<T>) => {
  if (limit <= 0) return (task) => task();
  let running = 0;
  const waiting: Array<() => void> = [];
  return async (task) => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else running += 1;
    try {
      return await task();
    } finally {
      // the turn passes straight to the next waiting task, or is given back
      const next = waiting.shift();
      if (next) next();
      else running -= 1;
    }
  };
};
