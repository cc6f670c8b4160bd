import { defineCheck } from "../check";
import { clip } from "../lib/text";
import { elementsNamedAny, isInert } from "./dom";
import { resolveHref } from "./head";

// Elements whose URL attribute the browser loads as a subresource, and that attribute.
const LOADED = new Map([
  ["img", "src"],
  ["script", "src"],
  ["iframe", "src"],
  ["video", "src"],
  ["audio", "src"],
  ["source", "src"],
  ["track", "src"],
  ["embed", "src"],
  ["object", "data"],
  ["link", "href"],
]);
// <link> types the browser fetches (not canonical, alternate, preconnect, ...)
const LOADED_LINKS = new Set(["stylesheet", "icon", "preload", "modulepreload"]);

const loadedUrl = (element: Element): string | null => {
  const attribute = LOADED.get(element.localName);
  if (!attribute) return null;
  if (element.localName === "link") {
    const rels = (element.getAttribute("rel") ?? "").toLowerCase().split(/\s+/);
    if (!rels.some((rel) => LOADED_LINKS.has(rel))) return null;
  }
  return element.getAttribute(attribute);
};

/**
 * On an https page, nothing loads over plain http: neither the requests the render made nor the
 * resources the rendered DOM points at (browsers silently upgrade or block some of them, so the
 * request log alone can miss them). Any http subresource fails; an http page skips.
 */
export const mixedContent = defineCheck({
  id: "mixed-content",
  category: "seo",
  severity: "warning",
  maxScore: 2,
  quick: false,
  title: "No insecure content on a secure page",
  run: (page) => {
    if (page.finalUrl.protocol !== "https:") {
      return { status: "skip", description: "The page is served over http, so mixed content does not apply." };
    }
    const insecure = new Set<string>();
    for (const request of page.snapshot.subresources) {
      if (request.url.startsWith("http:")) insecure.add(request.url);
    }
    for (const element of elementsNamedAny(page, [...LOADED.keys()])) {
      const raw = loadedUrl(element);
      if (raw === null || isInert(element)) continue;
      const url = resolveHref(page, raw.trim());
      if (url?.protocol === "http:") insecure.add(url.href);
    }
    if (insecure.size === 0) {
      return { status: "pass", description: "Every subresource of this https page loads over https." };
    }
    const examples = [...insecure].slice(0, 3).map((url) => clip(url, 70));
    return {
      status: "fail",
      description: `${insecure.size} subresource${insecure.size === 1 ? "" : "s"} load over plain http on this https page: ${examples.join(", ")}${insecure.size > 3 ? ", ..." : ""}.`,
      fix: `Load these ${insecure.size} resources over https (or from your own origin), starting with ${examples[0]}; browsers block or upgrade insecure ones.`,
      evidence: [...insecure],
    };
  },
});
