import { randomUUID } from "node:crypto";
import type { Response } from "express";

/** parts are gathered into writes of about this many characters */
const WRITE_CHARS = 64 * 1024;

/** Resolves once the socket has taken what it was given, or has closed. */
const drained = (res: Response): Promise<void> =>
  new Promise((resolve) => {
    if (res.destroyed) return resolve();
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });

/**
 * Sends a file (200, with these headers) made as it is sent, an audit's export that may run to
 * hundreds of megabytes, holding no more of it than a write: its parts are gathered into writes
 * of about 64 KB, and the next part is asked for once the socket has taken the last write, so a
 * slow client slows the reading and not the memory. A client that goes away ends the file: its
 * parts are returned, which ends their reading (the database's).
 *
 * The status and headers leave with the first write: an error before it (the database gone,
 * a page that cannot be read) still reaches the error middleware and is answered in the
 * request's envelope. After it the 200 cannot be taken back: the error is logged with an id and
 * the connection destroyed, so the client sees a transfer cut short (chunked, with no last
 * chunk), never a well-formed file with pages missing.
 */
export const sendStreamedFile = async (
  res: Response,
  headers: Record<string, string>,
  parts: AsyncIterable<string>,
): Promise<void> => {
  const iterator = parts[Symbol.asyncIterator]();
  let gone = false;
  res.once("close", () => {
    gone = true;
  });
  let buffer = "";
  let sent = 0;
  const begin = () => {
    if (res.headersSent) return;
    // as given: express's res.set would add a charset to a media type
    res.status(200);
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  };
  const write = async (text: string) => {
    begin();
    sent += Buffer.byteLength(text);
    if (!res.write(text)) await drained(res);
  };
  try {
    for (;;) {
      // between any two parts, as between two pages
      if (gone) {
        await iterator.return?.();
        res.locals.log.info({ bytes: sent }, "file not finished: the client went away");
        return;
      }
      const step = await iterator.next();
      if (step.done) break;
      buffer += step.value;
      if (buffer.length < WRITE_CHARS) continue;
      const full = buffer;
      buffer = "";
      await write(full);
    }
  } catch (error) {
    // nothing has left yet: answered as any error is
    if (!res.headersSent) throw error;
    const errorId = randomUUID();
    res.locals.log.error({ err: error, errorId, bytes: sent }, "file cut short: it failed after its first bytes");
    res.destroy();
    return;
  }
  begin();
  res.end(buffer);
};
