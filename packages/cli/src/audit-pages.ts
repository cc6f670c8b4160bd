import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { AuditPageView } from "@scan/contract";
import { checksPruned } from "@scan/reports";
import { type PageShortfalls, pageShortfalls } from "./assertions";

/** An audit's pages in a temporary file, a JSON line each, read again a pass at a time. */
export type SpooledPages = {
  read: () => AsyncGenerator<AuditPageView>;
  remove: () => Promise<void>;
};

export type ReadPages = {
  /** where page checks fell short, to name the pages */
  shortfalls: PageShortfalls;
  /** retention dropped a judged page's checks */
  pruned: boolean;
  spooled: SpooledPages | null;
};

async function* linesOf(file: string): AsyncGenerator<AuditPageView> {
  const input = createReadStream(file, { encoding: "utf8" });
  try {
    for await (const line of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY }))
      if (line) yield JSON.parse(line) as AuditPageView;
  } finally {
    input.destroy();
  }
}

/**
 * Reads an audit's pages once, as the API gives them: where page checks fell short, and whether
 * retention dropped a judged page's checks, are gathered on the way; with `spool`, each page is
 * also written to a temporary file, which the reports that show pages read again, a pass at a
 * time. Nothing holds every page: a 10,000-page full audit is hundreds of megabytes of them.
 */
export const readAuditPages = async (
  pages: AsyncIterable<AuditPageView>,
  { spool }: { spool: boolean },
): Promise<ReadPages> => {
  const shortfalls = pageShortfalls();
  let pruned = false;
  const gather = (page: AuditPageView) => {
    shortfalls.add(page);
    pruned ||= checksPruned(page);
  };
  if (!spool) {
    for await (const page of pages) gather(page);
    return { shortfalls, pruned, spooled: null };
  }
  const dir = await mkdtemp(join(tmpdir(), "scan-audit-"));
  const file = join(dir, "pages.jsonl");
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    await pipeline(
      Readable.from(
        (async function* () {
          for await (const page of pages) {
            gather(page);
            yield `${JSON.stringify(page)}\n`;
          }
        })(),
      ),
      createWriteStream(file),
    );
  } catch (error) {
    await remove();
    throw error;
  }
  return { shortfalls, pruned, spooled: { read: () => linesOf(file), remove } };
};

/**
 * Writes a report made in parts to a file as the parts come, through a file beside it that is
 * renamed once whole: a failure midway leaves no file cut short for a later step to upload.
 */
export const writePartsToFile = async (parts: AsyncIterable<string>, output: string): Promise<void> => {
  const partial = `${output}.partial-${process.pid}`;
  try {
    await pipeline(Readable.from(parts), createWriteStream(partial));
    await rename(partial, output);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
};

/** Writes a report made in parts to a stream that stays open (stdout), waiting when it is full. */
export const writeParts = async (parts: AsyncIterable<string>, out: NodeJS.WritableStream): Promise<void> => {
  for await (const part of parts) if (!out.write(part)) await once(out, "drain");
};
