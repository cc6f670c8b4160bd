/**
 * The thread of served-reader.ts: reads the main content of a page's HTML as served, one
 * message at a time, while the worker's main thread drives the page's render.
 */
import { parentPort } from "node:worker_threads";
import { servedMainText } from "@scan/checks";

export type ServedReadRequest = { id: number; rawHtml: string };
export type ServedReadAnswer = { id: number; text: string } | { id: number; error: string };

parentPort?.on("message", ({ id, rawHtml }: ServedReadRequest) => {
  let answer: ServedReadAnswer;
  try {
    answer = { id, text: servedMainText(rawHtml) };
  } catch (error) {
    answer = { id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(answer);
});
