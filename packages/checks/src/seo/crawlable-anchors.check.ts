import { defineCheck } from "../check";
import { clip } from "../lib/text";
import { type Anchor, anchors } from "./anchors";
import { baseUrl } from "./head";

// Attributes HTML allows only with an href: their presence shows the <a> is meant as a link.
const HREF_ATTRIBUTES = ["target", "download", "ping", "rel", "hreflang", "type", "referrerpolicy"];

// Handlers written on <body> that the browser attaches to the window, not to an element.
const WINDOW_HANDLERS = new Set([
  "onload",
  "onunload",
  "onbeforeunload",
  "onresize",
  "onscroll",
  "onhashchange",
  "onpopstate",
  "onmessage",
  "onerror",
  "onfocus",
  "onblur",
  "onpageshow",
  "onpagehide",
  "ononline",
  "onoffline",
  "onstorage",
]);

/** An on* attribute on the element or an ancestor (Lighthouse counts ancestors' listeners too). */
const hasInlineHandler = (element: Element): boolean => {
  for (let node: Element | null = element; node; node = node.parentElement) {
    const onBody = node.localName === "body";
    const handlers = node.getAttributeNames().filter((name) => name.startsWith("on"));
    if (handlers.some((name) => !(onBody && WINDOW_HANDLERS.has(name.toLowerCase())))) return true;
  }
  return false;
};

const JAVASCRIPT_VOID = /javascript:void(\(|)0(\)|)/;

/** Why Lighthouse's crawlable-anchors would flag this anchor, or null when crawlers can follow or ignore it. */
const problem = (anchor: Anchor, base: URL): string | null => {
  const { element } = anchor;
  const rawHref = anchor.rawHref.replace(/\s/g, "");
  // an explicit role (button, tab, ...) says the element is not a link
  if ((element.getAttribute("role") ?? "").trim() !== "") return null;
  if (rawHref.startsWith("mailto:")) return null;
  // <a id="..."> is a fragment target, not a link
  if (rawHref === "" && (element.getAttribute("id") ?? "") !== "") return null;
  if (rawHref.startsWith("file:")) return "a file: URL";
  // <a name="..."> is the old form of a fragment target
  if ((element.getAttribute("name") ?? "").trim() !== "") return null;
  if (!anchor.hasHref) {
    // An <a> without href or link attributes is a placeholder, not a link (HTML); Lighthouse
    // flags it only when script listens to it, i.e. it acts as a link crawlers cannot follow.
    // Listeners added by script are invisible in a DOM snapshot: inline on* handlers stand in.
    const linkish = HREF_ATTRIBUTES.some((name) => element.hasAttribute(name));
    if (!linkish) return hasInlineHandler(element) ? "no href, but a script click handler" : null;
    return "link attributes but no href";
  }
  if (JAVASCRIPT_VOID.test(rawHref)) return "a javascript:void(0) href";
  try {
    new URL(rawHref, base);
  } catch {
    return "an href that is not a valid URL";
  }
  return null;
};

const describeAnchor = (anchor: Anchor): string => {
  const label = anchor.text !== "" ? `"${clip(anchor.text, 30)}"` : "an <a> without text";
  return anchor.hasHref ? `${label} (href="${clip(anchor.rawHref, 40)}")` : label;
};

/**
 * Lighthouse 12.8 `crawlable-anchors`: every `<a>` that acts as a link has an href that
 * resolves to a URL. Flagged: `javascript:void(0)`, `file:` and unparseable hrefs; an `<a>`
 * with link attributes (target, rel, ...) but no href; and an `<a>` without href that script
 * listens to (a link crawlers cannot follow). Not flagged: placeholders (`<a>` without href or
 * listeners), fragment targets (`<a id>`, `<a name>`), mailto: links and anchors with an explicit
 * role. Script listeners are invisible in a DOM snapshot, so inline on* handlers on the anchor or
 * an ancestor stand in for them. docs/spec/checks.md's "javascript: or empty" is read as Lighthouse's
 * rule: other `javascript:` hrefs and `href=""` resolve to URLs and pass, as in Lighthouse.
 */
export const crawlableAnchors = defineCheck({
  id: "crawlable-anchors",
  category: "seo",
  severity: "warning",
  maxScore: 3,
  quick: false,
  title: "Links are crawlable",
  run: (page) => {
    const base = baseUrl(page);
    const all = anchors(page);
    const failing = all
      .map((anchor) => ({ anchor, reason: problem(anchor, base) }))
      .filter((item): item is { anchor: Anchor; reason: string } => item.reason !== null);
    if (failing.length === 0) {
      // Lighthouse passes other javascript: hrefs; no crawler follows them, and the page is told so
      const scripted = all.filter(
        (anchor) =>
          anchor.rawHref.replace(/\s/g, "").toLowerCase().startsWith("javascript:") &&
          (anchor.element.getAttribute("role") ?? "").trim() === "",
      );
      const first = scripted[0];
      return {
        status: "pass",
        description: first
          ? `None of the page's ${all.length} <a> elements is a link Lighthouse counts as uncrawlable; ${scripted.length} run${scripted.length === 1 ? "s" : ""} a script instead of linking (${describeAnchor(first)}), which crawlers do not follow: a <button> says so.`
          : `None of the page's ${all.length} <a> elements is a link crawlers cannot follow.`,
        evidence: first ? [describeAnchor(first)] : [],
      };
    }
    const examples = failing
      .slice(0, 3)
      .map(({ anchor, reason }) => `${describeAnchor(anchor)}: ${reason}`)
      .join("; ");
    return {
      status: "fail",
      description: `${failing.length} of ${all.length} links cannot be crawled, e.g. ${examples}.`,
      fix: `Give each of the ${failing.length} links the URL of the page it opens in href (${examples}); where one only runs a script (a menu, a tab, a player), make it a <button>.`,
      evidence: [String(failing.length), String(all.length), examples],
    };
  },
});
