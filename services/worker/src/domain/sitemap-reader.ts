import { gunzipSync } from "node:zlib";
import { DEFAULT_SITEMAP_BOUNDS, parseSitemap, type SitemapBounds } from "@scan/audit";
import type { SitemapRead } from "@scan/contract";
import { type FetchPolicy, fetchDocument, TargetError } from "@scan/scanner";

const isGzip = (body: Buffer): boolean => body.length >= 2 && body[0] === 0x1f && body[1] === 0x8b;

export type SitemapsRead = {
  files: SitemapRead[];
  /** page URLs listed, absolute, in the order read, distinct */
  urls: string[];
  truncated: boolean;
};

/**
 * Reads the sitemaps from these URLs breadth-first, following indexes, within the bounds.
 * Every fetch goes through the scanner's fetch, so each file's address (and each redirect's)
 * passes the address policy before it is requested. Never throws: a file that cannot be read
 * is listed with its status and why.
 */
export const readSitemaps = async (
  starts: readonly string[],
  policy: FetchPolicy,
  { bounds = DEFAULT_SITEMAP_BOUNDS, deadline }: { bounds?: SitemapBounds; deadline: number },
): Promise<SitemapsRead> => {
  const files: SitemapRead[] = [];
  const urls = new Set<string>();
  const seen = new Set<string>();
  const queue = [...starts];
  let totalBytes = 0;
  let truncated = false;
  while (queue.length > 0) {
    const next = queue.shift() as string;
    if (seen.has(next)) continue;
    if (files.length >= bounds.maxFiles || totalBytes >= bounds.maxTotalBytes || Date.now() >= deadline) {
      truncated = true;
      break;
    }
    seen.add(next);
    const read: SitemapRead = { url: next, status: 0, kind: "unreachable", urls: 0, gzip: false, error: null };
    files.push(read);
    let body: Buffer;
    try {
      const room = Math.min(bounds.maxFileBytes, bounds.maxTotalBytes - totalBytes);
      const { final } = await fetchDocument(new URL(next), policy, { deadline, maxBytes: room, maxRedirects: 5 });
      read.status = final.status;
      if (final.status < 200 || final.status >= 300) {
        read.error = `answered ${final.status}`;
        continue;
      }
      body = final.body;
      if (isGzip(body)) {
        read.gzip = true;
        try {
          body = gunzipSync(body, { maxOutputLength: room });
        } catch (error) {
          read.kind = "invalid";
          read.error = `gzip could not be read within ${room} bytes (${(error as Error).message})`;
          truncated ||= /maxOutputLength|buffer/i.test((error as Error).message);
          continue;
        }
      } else if (final.truncated) {
        truncated = true;
      }
      totalBytes += body.length;
    } catch (error) {
      read.error = error instanceof TargetError ? error.message : String(error);
      continue;
    }
    const parsed = parseSitemap(body.toString("utf8"));
    if (parsed.kind === "invalid") {
      read.kind = "invalid";
      read.error = parsed.error;
      continue;
    }
    read.kind = parsed.kind;
    for (const loc of parsed.locs) {
      let absolute: string;
      try {
        absolute = new URL(loc, next).toString();
      } catch {
        continue;
      }
      if (parsed.kind === "sitemapindex") {
        queue.push(absolute);
        continue;
      }
      if (urls.size >= bounds.maxUrls) {
        truncated = true;
        break;
      }
      read.urls += 1;
      urls.add(absolute);
    }
  }
  if (queue.some((url) => !seen.has(url))) truncated = true;
  return { files, urls: [...urls], truncated };
};
