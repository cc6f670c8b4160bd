import { defineCheck } from "../check";
import { nodesOfType } from "../lib/jsonld";

const itemCount = (value: unknown): number => (Array.isArray(value) ? value.length : value ? 1 : 0);

/**
 * BreadcrumbList markup with at least one item: where the page sits in the site, which engines
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
    const counts = nodesOfType(page, ["BreadcrumbList"]).map((list) => itemCount(list.itemListElement));
    const items = Math.max(0, ...counts);
    if (items > 0) {
      return { status: "pass", description: `BreadcrumbList markup with ${items} item${items === 1 ? "" : "s"}.` };
    }
    if (page.finalUrl.pathname === "/" && page.finalUrl.search === "") {
      return { status: "skip", description: "The home page needs no breadcrumb trail." };
    }
    return {
      status: "fail",
      description:
        counts.length > 0 ? "The BreadcrumbList markup has no items." : "No BreadcrumbList markup on the page.",
      fix: "Add BreadcrumbList JSON-LD listing the path from the home page to this page (ListItem with position, name and item URL).",
    };
  },
});
