import { defineCheck } from "../check";
import { jsonLd, nodesOfType, textOf, typesOf, unreadableFix, unreadableNote } from "../lib/jsonld";
import { htmlItems } from "../lib/microdata";
import { siteNameOf } from "../lib/organization";
import { headlineOf, visibleTrail, withoutHash } from "../lib/own-content";
import { excerpt } from "../lib/text";
import type { Page } from "../page";

const itemCount = (value: unknown): number => (Array.isArray(value) ? value.length : value ? 1 : 0);

// what a template writes when a value it meant to fill in was missing
const TEMPLATE_LEFTOVER = /(?:^|\/)(?:undefined|null|NaN)(?:[/?#]|$)|\[object |\{\{|\$\{|%7B%7B/i;

const record = (value: unknown): Record<string, unknown> | null =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

/**
 * An item of the trail whose URL a template left unfilled ("…/undefined", "[object Object]",
 * "{{url}}") or that is no URL at all; "" when none is. (Items without a name or URL are not
 * judged here: the markup's forms, RDFa among them, carry them in too many ways.)
 */
const itemProblem = (list: unknown, base: URL): string => {
  const items = (Array.isArray(list) ? list : [list]).map(record);
  for (const [index, item] of items.entries()) {
    if (!item) continue;
    const target = item.item;
    const inner = record(target);
    const url =
      typeof target === "string" ? target.trim() : (textOf(inner?.["@id"]) ?? textOf(inner?.url) ?? textOf(item.url));
    if (!url) continue;
    const name = textOf(item.name) ?? textOf(inner?.name);
    const at = `item ${index + 1} of ${items.length}${name ? ` ("${name.slice(0, 40)}")` : ""}`;
    if (TEMPLATE_LEFTOVER.test(url)) return `${at} links to "${url.slice(0, 80)}", a value its template left unfilled`;
    try {
      new URL(url, base);
    } catch {
      return `${at} links to "${url.slice(0, 80)}", which is not a URL`;
    }
  }
  return "";
};

export const breadcrumbSchema = defineCheck({
  id: "breadcrumb-schema",
  category: "aeo",
  severity: "info",
  maxScore: 2,
  quick: false,
  title: "Breadcrumbs are marked up",
  run: (page) => {
    const lists = [
      ...nodesOfType(page, ["BreadcrumbList"]).map((node) => ({ syntax: "JSON-LD", node })),
      ...htmlItems(page).filter(({ node }) => typesOf(node).includes("BreadcrumbList")),
    ].map(({ syntax, node }) => ({ syntax, items: itemCount(node.itemListElement), list: node.itemListElement }));
    const counts = lists.map((list) => list.items);
    const best = [...lists].sort((a, b) => b.items - a.items)[0];
    const items = best?.items ?? 0;
    if (best && items > 0) {
      const problem = itemProblem(best.list, page.finalUrl);
      if (problem) {
        return {
          status: "warn",
          description: `BreadcrumbList markup${best.syntax === "JSON-LD" ? "" : ` (${best.syntax})`} with ${items} item${items === 1 ? "" : "s"}, but ${problem}: engines drop a trail with such an item.`,
          fix: `Give the BreadcrumbList's ${problem.split(" links")[0]} the URL of that level of the site, as the page's own links to it do; check the template that fills the trail in.`,
          evidence: [String(items), problem],
        };
      }
      return {
        status: "pass",
        description: `BreadcrumbList markup${best.syntax === "JSON-LD" ? "" : ` (${best.syntax})`} with ${items} item${items === 1 ? "" : "s"}.`,
        evidence: [String(items)],
      };
    }
    if (page.finalUrl.pathname === "/" && page.finalUrl.search === "") {
      return { status: "skip", description: "The home page needs no breadcrumb trail.", evidence: [] };
    }
    const path = page.finalUrl.pathname;
    const fix = trailFix(page);
    if (counts.length === 0 && jsonLd(page).unreadableNodes.some((node) => typesOf(node).includes("BreadcrumbList"))) {
      return {
        status: "fail",
        description: `BreadcrumbList markup is present but unreadable: ${unreadableNote(page, ["BreadcrumbList"])}`,
        fix: unreadableFix(page, `its BreadcrumbList for ${path}`),
        evidence: [path, "unreadable"],
      };
    }
    const note = unreadableNote(page);
    return {
      status: "fail",
      description: `${counts.length > 0 ? "The BreadcrumbList markup has no items" : "No BreadcrumbList markup"} for ${path}${note ? `; ${note}` : "."}`,
      fix: `${note ? `${unreadableFix(page)} ` : ""}${fix}`,
      evidence: [path, String(counts.length), note],
    };
  },
});

/**
 * The trail the fix proposes, from the page itself: the home page under the site's name, the
 * levels its visible breadcrumb links (or, without one, the folders of its path, whose names
 * the owner must supply), then the page under its headline.
 */
const trailFix = (page: Page): string => {
  const home = `${page.finalUrl.origin}/`;
  const site = siteNameOf(page);
  const self = withoutHash(page.finalUrl);
  const headline = headlineOf(page);
  const shown = visibleTrail(page).filter((link) => link.url !== home && link.url !== self);
  const folders = page.finalUrl.pathname
    .split("/")
    .filter(Boolean)
    .slice(0, -1)
    .map((_, index, all) => `${home}${all.slice(0, index + 1).join("/")}/`);
  const items = [
    `1 "${site ? excerpt(site.value, 40) : "(the site's name: the page names none, so its owner must supply it)"}" ${home}`,
    ...(shown.length > 0
      ? shown.map((link) => `"${excerpt(link.text, 40)}" ${link.url}`)
      : folders.map((url) => `(the name of ${url}, which its owner must supply) ${url}`)),
    `"${headline ? excerpt(headline, 60) : "(the page's name: it has no heading or title, so its owner must supply it)"}" ${self}`,
  ].map((item, index) => (index === 0 ? item : `${index + 1} ${item}`));
  return `Add BreadcrumbList JSON-LD with a ListItem (position, name, item URL) for each level from the home page to ${page.finalUrl.pathname}: ${items.join(" › ")}${shown.length > 0 ? " (the middle levels as the page's breadcrumb links them)" : ""}.`;
};
