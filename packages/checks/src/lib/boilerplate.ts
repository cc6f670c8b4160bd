/**
 * What on a page is not its content: navigation, sidebars, teasers and widgets. The content
 * checks read the main content (page.ts), and Readability's extraction still lets some of these
 * through (a newsletter box inside the article, a "Featured" module after it); the checks that
 * read the rendered DOM beside it (bylines, dates, the page's h1) must pass them over too.
 * DOM-only: no Page here, so page.ts can use it while it builds the main content.
 */

// elements that hold navigation, asides and dialogs wherever they stand (not <form>: ASP.NET
// pages wrap their whole body in one)
const CHROME_TAGS = new Set(["nav", "aside", "menu", "dialog", "button", "select"]);
// landmark roles of the same
const CHROME_ROLES = new Set(["navigation", "complementary", "search", "dialog", "alertdialog", "menu", "menubar"]);
// a page's own header and footer are chrome; an article's header and footer (byline, date) are not
const SITE_CHROME_TAGS = new Set(["header", "footer"]);
const SITE_CHROME_ROLES = new Set(["banner", "contentinfo"]);
const CONTENT_TAGS = new Set(["article", "main"]);

/**
 * Words of a class or id that name a widget: newsletter and subscription boxes, promotions,
 * related and recommended stories, share and social buttons, sidebars, teasers, sponsored
 * blocks and ads, popular and trending lists, comment threads, tag lists, pagination.
 */
const WIDGET_WORDS = new Set([
  ...["newsletter", "newsletters", "subscribe", "subscription", "subscriptions", "signup", "paywall"],
  ...["promo", "promos", "promotion", "promoted", "related", "recommended", "recommendations", "recirc"],
  ...["share", "sharing", "sharebar", "social", "sidebar", "widget", "widgets", "teaser", "teasers", "tombstone"],
  ...["sponsor", "sponsored", "advert", "advertisement", "ad", "ads", "adslot", "outbrain", "taboola"],
  ...["popular", "trending", "mostread", "comment", "comments", "disqus", "tags", "pagination", "pager"],
  ...["breadcrumb", "breadcrumbs", "cookie", "consent"],
]);
// "has-sidebar", "with-comments", "no-ads": a state of the layout, not the widget itself
const NEGATING = new Set(["has", "with", "no", "without", "show", "hide", "is"]);

/** The words of a class or id token: "newsletter-wrapper" → newsletter, wrapper; "FeaturedTombstone" → featured, tombstone. */
const partsOf = (token: string): string[] =>
  token
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[\s_-]+/)
    .filter((part) => part !== "");

// text-level elements: a "comment" class on a span is syntax highlighting, not a comment thread
const INLINE = new Set([
  ...["a", "abbr", "b", "bdi", "bdo", "br", "cite", "code", "data", "dfn", "em", "i", "img", "kbd", "label"],
  ...["mark", "q", "s", "samp", "small", "span", "strong", "sub", "sup", "svg", "time", "u", "var", "wbr"],
]);
const CODE = new Set(["pre", "code"]);
// an id of more words is made from a heading's text ("Eich_CEO_promotion_controversy"), not a widget's name
const MAX_ID_PARTS = 3;

const inCode = (element: Element): boolean => {
  for (let node = element.parentElement; node; node = node.parentElement) if (CODE.has(node.localName)) return true;
  return false;
};

type TokenReading = { word: string | null; parts: number };

// what a class or id token says, by token: the same few hundred tokens recur on every element
// of a page and on every page of a site. Bounded, since tokens come from the pages.
const TOKENS_KEPT = 20_000;
const tokenReadings = new Map<string, TokenReading>();

/** The widget word a class or id token names (none when a negating word qualifies it), and how many words it has. */
const readToken = (token: string): TokenReading => {
  let reading = tokenReadings.get(token);
  if (reading === undefined) {
    const parts = partsOf(token);
    const word = parts.some((part) => NEGATING.has(part))
      ? null
      : (parts.find((part) => WIDGET_WORDS.has(part)) ?? null);
    reading = { word, parts: parts.length };
    if (tokenReadings.size >= TOKENS_KEPT) tokenReadings.clear();
    tokenReadings.set(token, reading);
  }
  return reading;
};

/** The widget word in a block element's class or id ("newsletter"), or null. */
export const widgetWordOf = (element: Element): string | null => {
  if (INLINE.has(element.localName)) return null;
  const classes = (element.getAttribute("class") ?? "").split(/\s+/);
  const id = element.getAttribute("id") ?? "";
  const tokens = readToken(id).parts <= MAX_ID_PARTS ? [...classes, id] : classes;
  for (const token of tokens) {
    const { word } = readToken(token);
    if (word) return inCode(element) ? null : word;
  }
  return null;
};

const roleOf = (element: Element): string => (element.getAttribute("role") ?? "").trim().toLowerCase();

const insideContent = (element: Element, stop: Element | null): boolean => {
  for (let node = element.parentElement; node && node !== stop; node = node.parentElement) {
    if (CONTENT_TAGS.has(node.localName)) return true;
  }
  return false;
};

/** Why an element is not content; `byName` when a word of its class or id says so (it may be mistaken for a layout class). */
export type Boilerplate = { reason: string; byName: boolean };

/**
 * Why an element itself (not its ancestors) is not content, or null: a nav, aside or similar
 * element or landmark role, a site header or footer (one outside any article or main; unless
 * `siteChrome` is false), or a class or id naming a widget. `stop` bounds the search for an
 * enclosing article.
 */
export const boilerplateOf = (element: Element, stop: Element | null = null, siteChrome = true): Boilerplate | null => {
  const tag = element.localName;
  const role = roleOf(element);
  if (CHROME_TAGS.has(tag)) return { reason: `<${tag}>`, byName: false };
  if (CHROME_ROLES.has(role)) return { reason: `role="${role}"`, byName: false };
  if (siteChrome && (SITE_CHROME_TAGS.has(tag) || SITE_CHROME_ROLES.has(role)) && !insideContent(element, stop)) {
    return { reason: SITE_CHROME_TAGS.has(tag) ? `the site's <${tag}>` : `role="${role}"`, byName: false };
  }
  if (CONTENT_TAGS.has(tag) || tag === "body" || tag === "html") return null;
  const word = widgetWordOf(element);
  // a wrapper that holds the page's <main> is its layout ("content-sidebar-wrap"): no widget holds the main content
  if (!word || element.querySelector("main, [role=main]") !== null) return null;
  return { reason: `a "${word}" block`, byName: true };
};

/** `boilerplateOf`'s reason alone. */
export const boilerplateReason = (element: Element, stop: Element | null = null, siteChrome = true): string | null =>
  boilerplateOf(element, stop, siteChrome)?.reason ?? null;

export type BoilerplateOptions = {
  /** where the search stops (not included): the main content's root */
  stop?: Element | null;
  /** elements never taken for boilerplate: the ancestors of the page's h1, so that a layout class on a wrapper of the whole article does not discard it */
  keep?: ReadonlySet<Element>;
  /** false: a site header or footer is no boilerplate (the page's h1 often stands in one) */
  siteChrome?: boolean;
};

/**
 * The nearest ancestor-or-self of an element, up to `stop`, that is not content (see
 * boilerplateReason), and why; null when the element is content.
 */
export const enclosingBoilerplate = (
  element: Element,
  { stop = null, keep, siteChrome = true }: BoilerplateOptions = {},
): { element: Element; reason: string } | null => {
  for (let node: Element | null = element; node && node !== stop; node = node.parentElement) {
    if (keep?.has(node)) continue;
    const reason = boilerplateReason(node, stop, siteChrome);
    if (reason) return { element: node, reason };
  }
  return null;
};

/** The element and its ancestors: what enclosingBoilerplate must keep so that the element stays content. */
export const ancestorsOf = (element: Element | null): Set<Element> => {
  const set = new Set<Element>();
  for (let node = element; node; node = node.parentElement) set.add(node);
  return set;
};

// the title of a widget, whatever its markup: ehow-2's AdSense "Related Searches", "You might also like", "Comments"
export const WIDGET_TITLE =
  /^(?:related(?: searches| stories| articles| posts| content| links| reading| videos)?|you (?:may|might) also like|more (?:from [^.]+|stories|like this)|recommended(?: for you| reading| stories)?|sponsored(?: content| links| stories)?|promoted(?: stories| content)?|advertisement|comments?|(?:share|like) this(?: article| story| post)?|trending(?: now)?|most (?:read|popular|viewed))[\s:.!]*$/i;
