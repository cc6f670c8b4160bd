/** Reads samples out of Prometheus text exposition, for assertions on /metrics. */
export type Sample = { name: string; labels: Record<string, string>; value: number };

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export const parseMetrics = (text: string): Sample[] =>
  text
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("#"))
    .flatMap((line) => {
      const match = LINE.exec(line);
      if (!match) return [];
      const labels: Record<string, string> = {};
      for (const [, key, value] of (match[2] ?? "").matchAll(LABEL)) labels[key as string] = value as string;
      return [{ name: match[1] as string, labels, value: Number(match[3]) }];
    });

/** The value of the one sample with this name whose labels include these; undefined when none. */
export const sampleValue = (text: string, name: string, labels: Record<string, string> = {}): number | undefined =>
  parseMetrics(text).find(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  )?.value;

/** Sum of every sample with this name whose labels include these. */
export const sampleSum = (text: string, name: string, labels: Record<string, string> = {}): number =>
  parseMetrics(text)
    .filter(
      (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
    )
    .reduce((sum, sample) => sum + sample.value, 0);

export const scrape = async (url: string, headers: Record<string, string> = {}): Promise<string> => {
  const response = await fetch(`${url}/metrics`, { headers });
  if (response.status !== 200) throw new Error(`${url}/metrics answered ${response.status}`);
  return response.text();
};

/** Polls until the check passes or the deadline passes; for state that settles after a response. */
export const eventually = async <T>(
  check: () => Promise<T | undefined | false>,
  { timeoutMs = 15_000, intervalMs = 50, what = "condition" } = {},
): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
};
