import type { CheckDefinition, Verdict } from "../check";
import { countWords, type Page, wordsIn } from "../page";
import { perPage } from "./memo";
import { clip } from "./text";

/** Why a page's main content is a placeholder, and a sample of it. */
export type Placeholder = { kind: string; sample: string };

// the vocabulary of "Lorem ipsum dolor sit amet…" (Cicero, as typesetters scrambled it)
const LOREM = new Set(
  [
    ...["lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "consectetuer", "adipiscing", "adipisicing", "elit"],
    ...["sed", "do", "eiusmod", "tempor", "incididunt", "ut", "labore", "et", "dolore", "magna", "aliqua", "enim"],
    ...["ad", "minim", "veniam", "quis", "nostrud", "exercitation", "ullamco", "laboris", "nisi", "aliquip", "ex"],
    ...["ea", "commodo", "consequat", "duis", "aute", "irure", "in", "reprehenderit", "voluptate", "velit", "esse"],
    ...["cillum", "eu", "fugiat", "nulla", "pariatur", "excepteur", "sint", "occaecat", "cupidatat", "non"],
    ...["proident", "sunt", "culpa", "qui", "officia", "deserunt", "mollit", "anim", "id", "est", "laborum", "nunc"],
    ...["vel", "ac", "at", "nec", "vitae", "a", "mauris", "pellentesque", "vestibulum", "aliquam", "donec", "nam"],
    ...["integer", "quam", "eget", "felis", "purus", "justo", "mi", "sapien", "tellus", "turpis", "urna", "risus"],
  ].map((word) => word.toLowerCase()),
);
const LOREM_OPENING = /\blorem ipsum\b|\bdolor sit amet\b/i;

// what a page says while it has nothing to say yet, and the texts a CMS or theme ships as samples
const NOT_YET =
  /\b(?:coming soon|under construction|launching soon|site is being built|page is being built|check back soon)\b/i;
const TEMPLATE =
  /\b(?:hello world!?|this is your first post|this is an example page|sample page|just another wordpress site|add your content here|your content goes here|edit this text|insert (?:your )?text here|click here to edit|placeholder text)\b/i;
// a main content this short with such words says nothing else
const NEAR_EMPTY_WORDS = 60;

/**
 * Whether the page's main content is a placeholder: lorem ipsum (a third or more of its words
 * from its vocabulary, and the phrase itself), a "coming soon" or "under construction" notice,
 * or a CMS's or theme's sample text ("Hello world!", "Sample Page", "Your content goes here")
 * with under 60 words beside it. Null for a page with content of its own.
 */
export const placeholderOf = perPage((page: Page): Placeholder | null => {
  const text = page.main.text;
  const lorem = LOREM_OPENING.exec(text);
  if (lorem) {
    const words = wordsIn(text.toLowerCase());
    const latin = words.filter((word) => LOREM.has(word)).length;
    if (words.length > 0 && latin / words.length >= 1 / 3) {
      return { kind: "lorem ipsum", sample: clip(text.slice(lorem.index, lorem.index + 80), 80) };
    }
  }
  if (countWords(text) >= NEAR_EMPTY_WORDS) return null;
  const notYet = NOT_YET.exec(text);
  if (notYet) return { kind: `a "${notYet[0].toLowerCase()}" notice`, sample: clip(text, 80) };
  const template = TEMPLATE.exec(text);
  if (template) return { kind: `template text ("${template[0]}")`, sample: clip(text, 80) };
  return null;
});

/** The verdict of a content check on a placeholder page: not judged, and where the one finding is. */
export const placeholderSkip = (placeholder: Placeholder): Verdict => ({
  status: "skip",
  description: `Not judged: the main content is a placeholder (${placeholder.kind}); content-depth reports it once.`,
});

/**
 * A check of the main content's text that a placeholder page is not judged by: its 13 to 17
 * templated findings ("add statistics", "add a quotation", "divide under headings") would all
 * say one thing, which content-depth says once.
 */
export const judgesContent = (definition: CheckDefinition): CheckDefinition => ({
  ...definition,
  run: (page) => {
    const placeholder = placeholderOf(page);
    return placeholder ? placeholderSkip(placeholder) : definition.run(page);
  },
});
