import { defineCheck } from "../check";
import { jsonLd, nodesOfType, typesOf, unreadableFix, unreadableNote } from "../lib/jsonld";
import { htmlItems } from "../lib/microdata";

const itemCount = (value: unknown): number => (Array.isArray(value) ? value.length : value ? 1 : 0);

/**
 * Reads the page's BreadcrumbList markup with at least one item, in JSON-LD, microdata or RDFa
 * (as article-schema and organization-schema read them; one in a JSON-LD block that does not
 * parse is present but unreadable): where the page sits in the site, which engines
 * show in place of the URL. An empty list counts as none. The home page is skipped when it has
 * none: it is the top of every trail, and no breadcrumb guideline asks it for one.
 */
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
    ].map(({ syntax, node }) => ({ syntax, items: itemCount(node.itemListElement) }));
    const counts = lists.map((list) => list.items);
    const best = [...lists].sort((a, b) => b.items - a.items)[0];
    const items = best?.items ?? 0;
    if (best && items > 0) {
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
    const fix = `Add BreadcrumbList JSON-LD listing the path from the home page to ${path} (ListItem with position, name and item URL).`;
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
