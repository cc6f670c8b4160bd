import { clipAtWord, countWords, sentencesOf } from "@scan/checks";
import { contentBlocks } from "./content-blocks";
import type { PageFacts } from "./page-facts";
import type { TopicMatcher } from "./topic";

export type OutlineSection = { heading: string; level: number; points: string[] };

export type BlogContent = {
  contentType: "blog";
  title: string;
  intro: string | null;
  outline: OutlineSection[];
  markdown: string;
  notes: string[];
};

const MAX_POINTS = 3;
const MAX_SECTIONS = 20;
const POINT_MAX = 300;
const HAS_FIGURE = /\d/;

/**
 * The key sentences of a section: the first sentence of its first paragraph (the one that says
 * what the section is about), then sentences with figures in them (the statistics GEO research
 * finds engines quote), then, when the section is only a list, its first items. Sentences of
 * fewer than four words are passed over; at most three, in document order.
 */
const keyPoints = (paragraphs: readonly string[], items: readonly string[]): string[] => {
  const sentences = paragraphs.flatMap(sentencesOf).filter((sentence) => countWords(sentence) >= 4);
  const chosen = new Set<string>();
  if (sentences[0]) chosen.add(sentences[0]);
  for (const sentence of sentences) if (chosen.size < MAX_POINTS && HAS_FIGURE.test(sentence)) chosen.add(sentence);
  const points = sentences.filter((sentence) => chosen.has(sentence));
  for (const item of items) if (points.length < MAX_POINTS && countWords(item) >= 2) points.push(item);
  return points.slice(0, MAX_POINTS).map((point) => clipAtWord(point, POINT_MAX));
};

/**
 * A blog outline drawn from the page: the title (h1, og:title or title), an intro (meta
 * description, else the first paragraph), and one section per heading of the main content with
 * its key sentences (`keyPoints`). A page without headings gives one section under its title.
 * With a topic, the sections whose heading matches it, and in the others the points that do.
 */
export const blogContent = (facts: PageFacts, matches: TopicMatcher, topic: string | null): BlogContent => {
  const title = facts.h1 ?? facts.ogTitle ?? facts.title ?? facts.host;
  const intro = facts.description?.value ?? facts.intro;
  const sections: Array<{ heading: string; level: number; paragraphs: string[]; items: string[] }> = [];
  let current = { heading: title, level: 2, paragraphs: [] as string[], items: [] as string[] };
  const flush = () => {
    if (current.paragraphs.length > 0 || current.items.length > 0) sections.push(current);
  };
  for (const block of contentBlocks(facts.page)) {
    if (block.kind === "heading") {
      if (block.text === title) continue;
      flush();
      current = { heading: block.text, level: Math.max(2, block.level), paragraphs: [], items: [] };
    } else if (block.kind === "paragraph") current.paragraphs.push(block.text);
    else current.items.push(...block.items);
  }
  flush();
  const outline: OutlineSection[] = [];
  for (const section of sections) {
    if (outline.length >= MAX_SECTIONS) break;
    const points = keyPoints(section.paragraphs, section.items);
    if (points.length === 0) continue;
    if (matches(section.heading)) outline.push({ heading: section.heading, level: section.level, points });
    else {
      const matching = points.filter(matches);
      if (matching.length > 0) outline.push({ heading: section.heading, level: section.level, points: matching });
    }
  }
  const notes: string[] = [];
  if (outline.length === 0) {
    notes.push(
      topic && sections.length > 0
        ? `Nothing in the page's main content matches the topic "${topic}".`
        : "The page's main content has no text to outline.",
    );
  }
  const markdown = [
    `# ${title}`,
    ...(intro ? [intro] : []),
    ...outline.map(
      (section) =>
        `${"#".repeat(Math.min(section.level, 6))} ${section.heading}\n\n${section.points.map((p) => `- ${p}`).join("\n")}`,
    ),
  ].join("\n\n");
  return { contentType: "blog", title, intro, outline, markdown: `${markdown}\n`, notes };
};
