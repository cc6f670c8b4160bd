import { promisify } from "node:util";
import { gunzip, gzip } from "node:zlib";
import { Snapshot } from "./snapshot";

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** A snapshot compressed for storage, and what had to go to make it fit. */
export type PackedSnapshot = {
  data: Buffer;
  /** bytes of the JSON before compression */
  size: number;
  /** true when the AI-crawler bodies and the subresource list were dropped to fit the cap */
  trimmed: boolean;
};

// the JSON of a page capped at MAX_HTML_BYTES, twice (served and rendered), with room to spare
const MAX_UNPACKED_BYTES = 128 * 1024 * 1024;

const compress = async (snapshot: Snapshot) => {
  const json = Buffer.from(JSON.stringify(snapshot), "utf8");
  return { data: await gzipAsync(json), size: json.byteLength };
};

/**
 * Gzipped JSON of a snapshot, at most `maxBytes` compressed; null when even the trimmed
 * snapshot does not fit. Trimming drops only what the generators never read (the pages
 * fetched as AI crawlers, the render's subresource list), so a trimmed snapshot stays a valid
 * Snapshot. Compression runs on libuv's pool, off the worker's event loop.
 */
export const packSnapshot = async (snapshot: Snapshot, maxBytes: number): Promise<PackedSnapshot | null> => {
  const whole = await compress(snapshot);
  if (whole.data.byteLength <= maxBytes) return { ...whole, trimmed: false };
  const trimmed = await compress({
    ...snapshot,
    botFetches: snapshot.botFetches.map((fetch) => ({ ...fetch, body: null })),
    subresources: [],
  });
  return trimmed.data.byteLength <= maxBytes ? { ...trimmed, trimmed: true } : null;
};

/** The snapshot back from storage, validated like any other input. */
export const unpackSnapshot = async (data: Uint8Array): Promise<Snapshot> => {
  const json = await gunzipAsync(data, { maxOutputLength: MAX_UNPACKED_BYTES });
  return Snapshot.parse(JSON.parse(json.toString("utf8")));
};
