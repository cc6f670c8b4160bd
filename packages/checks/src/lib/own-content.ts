import { isContent } from "../aeo/main-dom";
import { siteOf } from "../geo/site";
import { countWords, foldWhitespace, type Page } from "../page";
import { anchors } from "../seo/anchors";
import { resolveHref } from "../seo/head";
import { documentTitle } from "../seo/title.check";
import { ancestor, isHiddenByMarkup, isInert, readableText } from "./element";
import { perPage } from "./memo";

/**
 * The main content's passages, for fixes that name the page's own text rather than a template:
 * its paragraphs and their sentences, quoted as written. Nothing here judges a verdict.
 */

/** A content paragraph: its element and its text. */
export type Passage = { element: Element; text: string };

// a caption, an aside, a table cell or a quotation is not the content's own running text
const NOT_RUNNING_TEXT = "figure, figcaption, aside, nav, footer, table, blockquote";

/**
 * The main content's paragraphs (`<p>`, and `<li>` holding no paragraph), outside excluded
 * blocks, captions, asides, tables and block quotations, in order.
 */
export const contentPassages = perPage((page: Page): Passage[] =>
  [...page.main.root.querySelectorAll("p, li")]
    .filter(
      (element) =>
        isContent(page, element) &&
        element.querySelector("p, li") === null &&
        !insideWithin(element, page.main.root, NOT_RUNNING_TEXT),
    )
    .map((element) => ({ element, text: readableText(element) }))
    .filter(({ text }) => text !== ""),
);

/** Whether an element lies inside one matching `selector` below `root` (the root itself not counted). */
const insideWithin = (element: Element, root: Element, selector: string): boolean => {
  const found = element.closest(selector);
  return found !== null && found !== root && root.contains(found);
};

// a sentence ends at . ! ? followed by a space and a capital or an opening quote (not a digit: "Dec. 20"), or at a CJK full stop
const SENTENCE_END = /(?<=[.!?])\s+(?=["“„«(\p{Lu}])|(?<=[。！？])/u;

/** A paragraph's sentences, trimmed. */
export const sentencesOf = (text: string): string[] =>
  text
    .split(SENTENCE_END)
    .map((sentence) => foldWhitespace(sentence))
    .filter((sentence) => sentence !== "");

// a statement ends with a full stop or exclamation (a closing quotation mark may follow); a question, a caption, a dateline or a heading set as a paragraph does not
const STATEMENT_END = /[.!。！][”"’'」』»)）]*$/u;

/**
 * The main content's statements of at least `minWords` words, in order: sentences of its
 * running text that end as a statement does, so that a caption, a credit line, a dateline, a
 * question or a headline set as a paragraph is never quoted as the page's claim.
 */
export const contentSentences = perPage((page: Page): string[] =>
  contentPassages(page)
    .flatMap(({ text }) => sentencesOf(text))
    .filter((sentence) => STATEMENT_END.test(sentence) && countWords(sentence) >= 6),
);

/** Text shortened for a fix at a word boundary, marked with "…" when cut. */
export const excerpt = (text: string, max = 90): string => {
  const folded = foldWhitespace(text);
  if (folded.length <= max) return folded;
  const cut = folded.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:–—-]+$/, "")}…`;
};

/** A passage quoted in a fix: “…”. */
export const quoted = (text: string, max = 90): string => `“${excerpt(text, max)}”`;

/** The first of the main content's sentences (of 6 words or more) that `test` accepts, or null. */
export const firstSentence = (page: Page, test: (sentence: string) => boolean = () => true): string | null =>
  contentSentences(page).find(test) ?? null;

/** The page's headline: its main content's heading, else its <title>; "" when it has neither. */
export const headlineOf = (page: Page): string =>
  (page.main.heading ? readableText(page.main.heading) : "") || foldWhitespace(documentTitle(page)?.textContent ?? "");

/** A link of the page a fix names: its visible text and absolute URL (without fragment). */
export type OwnLink = { text: string; url: string };

// Unicode format characters (zero-width spaces and joiners, bidi marks): a link of them alone has no text
const INVISIBLE = /\p{Cf}/gu;

const ownLinksAmong = (page: Page, candidates: Iterable<Element>, max: number): OwnLink[] => {
  const site = siteOf(page.finalUrl.hostname);
  const self = page.finalUrl.href.replace(/#.*$/, "");
  const seen = new Set<string>([self]);
  const links: OwnLink[] = [];
  for (const element of candidates) {
    if (links.length >= max) break;
    if (isInert(element) || isHiddenByMarkup(element)) continue;
    const href = resolveHref(page, (element.getAttribute("href") ?? "").trim());
    if (!href || (href.protocol !== "http:" && href.protocol !== "https:") || siteOf(href.hostname) !== site) continue;
    const url = href.href.replace(/#.*$/, "");
    const text = foldWhitespace((element.textContent ?? "").replace(INVISIBLE, ""));
    if (text === "" || text.length > 60 || seen.has(url) || !keyPage(href, text)) continue;
    seen.add(url);
    links.push({ text, url });
  }
  return links;
};

// what a navigation links that is no page of the site's content: its home (named apart), an
// account, a sign-in, a search, a subscription, a script's e-mail protection
const NOT_A_KEY_PAGE =
  /^\/(?:$|cdn-cgi\/.*|account|accounts|settings|login|log-in|signin|sign-in|signup|sign-up|register|subscribe|subscription|search|cart|checkout|my)(?:[/?#._-]|$)/i;
const HOME_TEXT = /^(?:home|top|ホーム|トップ|accueil|startseite|inicio|首页|首頁)$/iu;

/** Whether a link names one of the site's own pages worth listing: not its home, an account or a sign-in. */
const keyPage = (url: URL, text: string): boolean => !NOT_A_KEY_PAGE.test(url.pathname) && !HOME_TEXT.test(text);

const NAVIGATION = new Set(["nav", "header"]);
const NAVIGATION_ROLES = new Set(["navigation", "banner"]);

/** The same-site links of the page's navigation and header (`<nav>`, `<header>`, their roles), in order, up to `max`. */
export const navigationLinks = (page: Page, max = 8): OwnLink[] =>
  ownLinksAmong(
    page,
    anchors(page)
      .filter(
        (anchor) =>
          ancestor(
            anchor.element,
            (node) =>
              NAVIGATION.has(node.localName) || NAVIGATION_ROLES.has((node.getAttribute("role") ?? "").toLowerCase()),
          ) !== null,
      )
      .map((anchor) => anchor.element),
    max,
  );

const BREADCRUMB = /breadcrumb/i;

/** The page's visible breadcrumb trail: the same-site links of the first element labelled, classed or typed as breadcrumbs. */
export const visibleTrail = perPage((page: Page): OwnLink[] => {
  for (const element of page.doc.querySelectorAll("[class], [id], [aria-label], [itemtype]")) {
    const label = ["class", "id", "aria-label", "itemtype"].map((name) => element.getAttribute(name) ?? "").join(" ");
    if (!BREADCRUMB.test(label) || isInert(element) || isHiddenByMarkup(element)) continue;
    const trail = ownLinksAmong(page, element.querySelectorAll("a[href]"), 8);
    if (trail.length > 0) return trail;
  }
  return [];
});
