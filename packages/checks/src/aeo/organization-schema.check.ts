import { defineCheck } from "../check";
import { jsonLd, textOf, typesOf, unreadableFix, unreadableNote } from "../lib/jsonld";
import { htmlItems } from "../lib/microdata";
import { isOrganization, ORGANIZATION_SUFFIX, ORGANIZATION_TYPES, siteNameOf } from "../lib/organization";
import { jsonString } from "../lib/text";
import type { Page } from "../page";

const REQUIRED = ["name", "url", "logo"] as const;

/** The page's own logo: an image outside its articles and lists whose src, class, id or alt says logo, as an absolute URL; or null. */
const logoOf = (page: Page): string | null => {
  for (const image of page.doc.querySelectorAll("img[src]")) {
    const said = ["src", "class", "id", "alt"].map((name) => image.getAttribute(name) ?? "").join(" ");
    const src = (image.getAttribute("src") ?? "").trim();
    if (!/logo/i.test(said) || src === "" || src.startsWith("data:") || /[\s'"();]/.test(src)) continue;
    // a site's logo heads or closes the page; an image in an article or a teaser is the story's
    if (image.closest("article, main, aside, li") !== null) continue;
    try {
      return new URL(src, page.finalUrl).href;
    } catch {}
  }
  return null;
};

/** "name", "url" and "logo" as the page states them, or that its owner must supply what it does not. */
const publisherFacts = (page: Page): string => {
  const site = siteNameOf(page);
  const logo = logoOf(page);
  return [
    site
      ? `"name": ${jsonString(site.value)} (the site's name, from ${site.source})`
      : `"name" (the page names no site, so its owner must supply it)`,
    `"url": "${page.finalUrl.origin}/"`,
    logo
      ? `"logo": "${logo}" (the page's logo image)`
      : `"logo" (the page shows no logo image, so its owner must supply one)`,
  ].join(", ");
};

/**
 * Reads the page's JSON-LD for an Organization or LocalBusiness (or one of their subtypes) with
 * name, url and logo: who stands behind the page, which engines use to attribute answers and
 * build knowledge panels. Nested nodes count (an Article's publisher). Of several, the most
 * complete one is judged; a logo may be a URL or an ImageObject. Missing some of the three is
 * partial (warn). Microdata and RDFa count as JSON-LD does (the catalogue names the types, not
 * a syntax, and Google reads all three; article-schema reads them alike): the description says
 * which syntax was found, the fix advises JSON-LD. One declared in a block that does not parse
 * is reported as present but unreadable, not as missing.
 */
export const organizationSchema = defineCheck({
  id: "organization-schema",
  category: "aeo",
  severity: "warning",
  maxScore: 4,
  quick: true,
  title: "Publisher is described as an Organization",
  run: (page) => {
    const graded = [
      ...jsonLd(page).nodes.map((node) => ({ syntax: "JSON-LD", node })),
      ...htmlItems(page).map(({ syntax, node }) => ({ syntax, node })),
    ]
      .filter(({ node }) => isOrganization(node))
      .map(({ syntax, node }) => ({
        syntax,
        type:
          typesOf(node).find((type) => ORGANIZATION_TYPES.has(type) || ORGANIZATION_SUFFIX.test(type)) ??
          "Organization",
        name: textOf(node.name),
        missing: REQUIRED.filter((key) => !textOf(node[key])),
      }))
      .sort((a, b) => a.missing.length - b.missing.length);
    const best = graded[0];
    if (!best) {
      const declared = jsonLd(page).unreadableNodes.find(isOrganization);
      if (declared) {
        const name = textOf(declared.name);
        return {
          status: "fail",
          description: `${typesOf(declared)[0]}${name ? ` "${name}"` : ""} is present but unreadable: ${unreadableNote(page)}`,
          fix: unreadableFix(page, `its ${typesOf(declared)[0]}${name ? ` "${name}"` : ""}`),
          evidence: [typesOf(declared)[0] ?? "", name ?? ""],
        };
      }
      const note = unreadableNote(page);
      return {
        status: "fail",
        description: `No Organization or LocalBusiness in the page's JSON-LD, microdata or RDFa${note ? `; ${note}` : "."}`,
        fix: `${note ? `${unreadableFix(page)} ` : ""}Add Organization (or LocalBusiness) JSON-LD, at least on the home page and as the publisher of articles, with ${publisherFacts(page)}.`,
        evidence: [note],
      };
    }
    const label = best.name ? `${best.type} "${best.name}"` : `${best.type} (unnamed)`;
    // JSON-LD is named by its label alone, as before; another syntax says which it is
    const found = best.syntax === "JSON-LD" ? label : `${label} (${best.syntax})`;
    const evidence = [label, ...(best.syntax === "JSON-LD" ? [] : [best.syntax]), ...best.missing];
    if (best.missing.length === 0) return { status: "pass", description: `${found} has name, url and logo.`, evidence };
    const logo = best.missing.includes("logo")
      ? " (a logo: a square image of 112 px or more that the site shows as its logo)"
      : "";
    // an Organization the page declares in JSON-LD that does not parse: making it parse is the fix
    const unreadable = best.syntax === "JSON-LD" ? undefined : jsonLd(page).unreadableNodes.find(isOrganization);
    const unreadableName = unreadable
      ? `${typesOf(unreadable)[0]}${textOf(unreadable.name) ? ` "${textOf(unreadable.name)}"` : ""}`
      : "";
    return {
      status: "warn",
      description: `${found} lacks ${best.missing.join(", ")}.${unreadable ? ` Its JSON-LD declares ${unreadableName} too, unreadable: ${unreadableNote(page)}` : ""}`,
      fix:
        best.syntax === "JSON-LD"
          ? `Add ${best.missing.join(", ")} to the ${label} JSON-LD${logo}.`
          : unreadable
            ? `${unreadableFix(page, `its ${unreadableName}`)} Give that ${typesOf(unreadable)[0]} "name", "url" and "logo"${logo}.`
            : `Add Organization JSON-LD with "name", "url" and "logo"${logo}, the syntax every engine reads (or add ${best.missing.join(", ")} to the ${label} ${best.syntax}).`,
      evidence,
    };
  },
});
