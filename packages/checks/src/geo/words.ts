import { profiled } from "../lib/profile";
import { wordsIn } from "../page";

/** Elements whose text no reader sees: code, styles, and markup kept for later. */
const SILENT = new Set(["script", "style", "noscript", "template"]);

/**
 * The visible text under a node, without scripts, styles, `<noscript>` and `<template>`, read
 * without touching the DOM (the DOMs of a page are shared by all its checks). Iterative, since
 * real pages nest deeper than a recursive walk should go.
 */
export const visibleText = (root: Node): string => {
  const parts: string[] = [];
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!node) break;
    if (node.nodeType === 3) {
      parts.push(node.nodeValue ?? "");
      continue;
    }
    if (node.nodeType === 1 && SILENT.has((node as Element).localName)) continue;
    const children = node.childNodes;
    // pushed in reverse so that text comes out in document order
    for (let index = children.length - 1; index >= 0; index--) {
      const child = children[index];
      if (child) stack.push(child);
    }
  }
  return parts.join(" ");
};

export type WordCounts = { counts: ReadonlyMap<string, number>; total: number };

/** How often each word occurs in a text (page.ts `wordsIn`, the one word count of every check), lower-cased. */
export const wordCounts = (text: string): WordCounts =>
  profiled("segmentation", () => {
    const counts = new Map<string, number>();
    let total = 0;
    for (const word of wordsIn(text.toLowerCase())) {
      counts.set(word, (counts.get(word) ?? 0) + 1);
      total += 1;
    }
    return { counts, total };
  });

/**
 * The share (0 to 1) of the reference's words that the other copy also holds, counted with
 * repetition: a copy with one paragraph of ten does not hold the other nine even when it uses
 * the same vocabulary. 1 when the reference has no words.
 */
export const sharedWords = (reference: WordCounts, copy: WordCounts): number => {
  if (reference.total === 0) return 1;
  let shared = 0;
  for (const [word, count] of reference.counts) shared += Math.min(count, copy.counts.get(word) ?? 0);
  return shared / reference.total;
};
