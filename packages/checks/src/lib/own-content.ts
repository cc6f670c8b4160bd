import { isContent } from "../aeo/main-dom";
import { siteOf } from "../geo/site";
import { countWords, foldWhitespace, type Page } from "../page";
import { anchors } from "../seo/anchors";
import { resolveHref } from "../seo/head";
import { documentTitle } from "../seo/title.check";
import { ancestor, isHiddenByMarkup, isInert, readableText } from "./element";
import { perPage } from "./memo";
import { clipAtWord, sentencesOf } from "./text";

/**
 * The main content's passages, for fixes that name the page's own text rather than a template:
 * its paragraphs and their sentences, quoted as written. Nothing here judges a verdict.
 */

/** A content paragraph: its element and its text. */
export type Passage = { element: Element; text: string };

/** What holds no running text of the content: a caption, an aside, a table cell, a quotation, a navigation or footer. */
export const NOT_RUNNING_TEXT = ["figure", "figcaption", "aside", "nav", "footer", "table", "blockquote"] as const;
const NOT_RUNNING_SELECTOR = NOT_RUNNING_TEXT.join(", ");

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
        !insideWithin(element, page.main.root, NOT_RUNNING_SELECTOR),
    )
    .map((element) => ({ element, text: readableText(element) }))
    .filter(({ text }) => text !== ""),
);

/** Whether an element lies inside one matching `selector` below `root` (the root itself not counted). */
const insideWithin = (element: Element, root: Element, selector: string): boolean => {
  const found = element.closest(selector);
  return found !== null && found !== root && root.contains(found);
};

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

/** The first of the main content's sentences (of 6 words or more) that `test` accepts, or null. */
export const firstSentence = (page: Page, test: (sentence: string) => boolean = () => true): string | null =>
  contentSentences(page).find(test) ?? null;

/** The page's headline: its main content's heading, else its <title>; "" when it has neither. */
export const headlineOf = (page: Page): string =>
  (page.main.heading ? readableText(page.main.heading) : "") || foldWhitespace(documentTitle(page)?.textContent ?? "");

/** A link of the page: its visible text and absolute URL (without fragment). */
export type OwnLink = { text: string; url: string };

/** A URL without its fragment: the page it names. */
export const withoutHash = (url: URL): string => url.href.replace(/#.*$/, "");

/** A link as found: its text as written and its resolved URL (null when it does not resolve). */
export type LinkCandidate = { text: string; href: URL | null };

/** Links as found, read from their elements: text content and `href` resolved against the page. */
export const linkCandidates = (page: Page, elements: Iterable<Element>): LinkCandidate[] =>
  [...elements].map((element) => ({
    text: element.textContent ?? "",
    href: resolveHref(page, (element.getAttribute("href") ?? "").trim()),
  }));

/** Links whose elements a reader sees: none inert or hidden by markup. */
const visibleLinkCandidates = (page: Page, elements: Iterable<Element>): LinkCandidate[] =>
  linkCandidates(
    page,
    [...elements].filter((element) => !isInert(element) && !isHiddenByMarkup(element)),
  );

/** Which of a page's links to keep, and how many. */
export type OwnLinkRule = {
  max: number;
  /** URLs already listed (the page itself among them): each is kept once, and added here */
  seen: Set<string>;
  /** a longer text is dropped (a fix names links by a short text) or clipped at a word (a file lists them all) */
  longText: { over: number; becomes: "dropped" | "clipped" };
  /** only the site's content pages: not its home, an account, a sign-in, a search or a cart */
  keyPagesOnly: boolean;
};

// Unicode format characters (zero-width spaces and joiners, word joiner, byte order mark, bidi marks): a link of them alone has no text
const INVISIBLE = /\p{Cf}/gu;

/** The same-site http(s) links among `candidates` with visible text, each URL once, in order, as `rule` keeps them. */
export const ownLinks = (page: Page, candidates: Iterable<LinkCandidate>, rule: OwnLinkRule): OwnLink[] => {
  const site = siteOf(page.finalUrl.hostname);
  const links: OwnLink[] = [];
  for (const { text: written, href } of candidates) {
    if (links.length >= rule.max) break;
    if (!href || (href.protocol !== "http:" && href.protocol !== "https:") || siteOf(href.hostname) !== site) continue;
    const url = withoutHash(href);
    const folded = foldWhitespace(written.replace(INVISIBLE, ""));
    const long = folded.length > rule.longText.over;
    if (long && rule.longText.becomes === "dropped") continue;
    const text = long ? clipAtWord(folded, rule.longText.over) : folded;
    if (text === "" || rule.seen.has(url) || (rule.keyPagesOnly && !keyPage(href, text))) continue;
    rule.seen.add(url);
    links.push({ text, url });
  }
  return links;
};

// the links a fix names: a short text, the site's content pages only
const fixLinks = (page: Page, candidates: LinkCandidate[], max: number): OwnLink[] =>
  ownLinks(page, candidates, {
    max,
    seen: new Set([withoutHash(page.finalUrl)]),
    longText: { over: 60, becomes: "dropped" },
    keyPagesOnly: true,
  });

// what a navigation links that is no page of the site's content: its home (named apart), an
// account, a sign-in, a search, a subscription, a script's e-mail protection
const NOT_A_KEY_PAGE =
  /^\/(?:$|cdn-cgi\/.*|account|accounts|settings|login|log-in|signin|sign-in|signup|sign-up|register|subscribe|subscription|search|cart|checkout|my)(?:[/?#._-]|$)/i;
const HOME_TEXT = /^(?:home|top|ホーム|トップ|accueil|startseite|inicio|首页|首頁)$/iu;

/** Whether a link names one of the site's own pages worth listing: not its home, an account or a sign-in. */
const keyPage = (url: URL, text: string): boolean => !NOT_A_KEY_PAGE.test(url.pathname) && !HOME_TEXT.test(text);

const NAVIGATION = new Set(["nav", "header"]);
const NAVIGATION_ROLES = new Set(["navigation", "banner"]);

/** Whether an element lies in the page's navigation or header (`<nav>`, `<header>`, their roles). */
export const inNavigation = (element: Element): boolean =>
  ancestor(
    element,
    (node) => NAVIGATION.has(node.localName) || NAVIGATION_ROLES.has((node.getAttribute("role") ?? "").toLowerCase()),
  ) !== null;

/** The same-site links of the page's navigation and header, in order, up to `max`. */
export const navigationLinks = (page: Page, max = 8): OwnLink[] =>
  fixLinks(
    page,
    visibleLinkCandidates(
      page,
      anchors(page)
        .map((anchor) => anchor.element)
        .filter(inNavigation),
    ),
    max,
  );

const BREADCRUMB = /breadcrumb/i;

/**
 * The page's first visible breadcrumb trail: of the elements labelled, classed or typed as
 * breadcrumbs (and not hidden), the first whose visible links `keep` keeps some of.
 */
export const breadcrumbTrail = (page: Page, keep: (links: LinkCandidate[]) => OwnLink[]): OwnLink[] => {
  for (const element of page.doc.querySelectorAll("[class], [id], [aria-label], [itemtype]")) {
    const label = ["class", "id", "aria-label", "itemtype"].map((name) => element.getAttribute(name) ?? "").join(" ");
    if (!BREADCRUMB.test(label) || isInert(element) || isHiddenByMarkup(element)) continue;
    const trail = keep(visibleLinkCandidates(page, element.querySelectorAll("a[href]")));
    if (trail.length > 0) return trail;
  }
  return [];
};

/** The trail a fix names: the content pages of the visible breadcrumb, up to 8. */
export const visibleTrail = perPage((page: Page): OwnLink[] =>
  breadcrumbTrail(page, (links) => fixLinks(page, links, 8)),
);
