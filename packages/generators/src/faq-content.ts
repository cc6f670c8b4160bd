import type { JsonLdNode } from "@scan/checks";
import { type FaqPair, faqPairs } from "./faq-pairs";
import type { PageFacts } from "./page-facts";
import type { TopicMatcher } from "./topic";

export type FaqContent = {
  contentType: "faq";
  title: string;
  items: FaqPair[];
  /** FAQPage JSON-LD of the items, ready to embed; null without items */
  jsonLd: JsonLdNode | null;
  markdown: string;
  notes: string[];
};

/**
 * An FAQ drawn from the page: its question headings and `<details>` with the paragraphs that
 * answer them, and its own FAQPage data (faq-pairs.ts); with a topic, the pairs whose question
 * or answer matches it. The FAQPage JSON-LD repeats the items word for word.
 */
export const faqContent = (facts: PageFacts, matches: TopicMatcher, topic: string | null): FaqContent => {
  const all = faqPairs(facts.page);
  const items = all.filter((pair) => matches(`${pair.question} ${pair.answer}`));
  const title = facts.h1 ?? facts.title ?? facts.host;
  const notes: string[] = [];
  if (all.length === 0) {
    notes.push("The page has no questions with answers to draw from (question headings, <details>, FAQPage data).");
  } else if (items.length === 0) notes.push(`None of the page's ${all.length} questions matches the topic "${topic}".`);
  const jsonLd =
    items.length > 0
      ? {
          "@context": "https://schema.org",
          "@type": "FAQPage",
          mainEntity: items.map((item) => ({
            "@type": "Question",
            name: item.question,
            acceptedAnswer: { "@type": "Answer", text: item.answer },
          })),
        }
      : null;
  const markdown = [
    `# ${title}: questions and answers`,
    ...items.map((item) => `## ${item.question}\n\n${item.answer}`),
  ].join("\n\n");
  return { contentType: "faq", title, items, jsonLd, markdown: `${markdown}\n`, notes };
};
