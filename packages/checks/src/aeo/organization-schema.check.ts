import { defineCheck } from "../check";
import { type JsonLdNode, jsonLd, textOf, typesOf, unreadableFix, unreadableNote } from "../lib/jsonld";
import { htmlItems } from "../lib/microdata";
import { countWords, foldWhitespace, type Page } from "../page";
import { metaKeyed } from "../seo/head";
import { documentTitle } from "../seo/title.check";

// schema.org's Organization and LocalBusiness trees are large; these are the types seen on real
// sites, and the suffix rule catches most of the rest (ShoeStore, AutomotiveBusiness, TravelAgency).
const ORGANIZATION_TYPES = new Set([
  ...["Organization", "Corporation", "LocalBusiness", "OnlineBusiness", "OnlineStore", "NewsMediaOrganization"],
  ...["EducationalOrganization", "CollegeOrUniversity", "School", "GovernmentOrganization", "NGO", "Consortium"],
  ...["MedicalOrganization", "Hospital", "Dentist", "Physician", "Pharmacy", "SportsOrganization", "SportsTeam"],
  ...["PerformingGroup", "MusicGroup", "Airline", "LibrarySystem", "Library", "ResearchOrganization", "Project"],
  ...["WorkersUnion", "Restaurant", "FoodEstablishment", "CafeOrCoffeeShop", "Bakery", "BarOrPub", "Hotel"],
  ...["LodgingBusiness", "Attorney", "BankOrCreditUnion", "RealEstateAgent", "AutoDealer", "RadioStation"],
  ...["TelevisionStation", "ChildCare", "ShoppingCenter", "SportsActivityLocation", "HealthClub", "Winery"],
  ...["ProfessionalService", "FinancialService", "AccountingService", "LegalService", "EmergencyService"],
]);
// "Service" is no suffix here: Service itself and most *Service types are not organizations
const ORGANIZATION_SUFFIX = /(?:Organization|Business|Store|Agency)$/;

export const isOrganization = (node: JsonLdNode): boolean =>
  typesOf(node).some((type) => ORGANIZATION_TYPES.has(type) || ORGANIZATION_SUFFIX.test(type));

const REQUIRED = ["name", "url", "logo"] as const;

// what sets a site's name apart from a headline in its <title>: "Headline | Page Six", "見出し：朝日新聞デジタル", "标题_栏目_好奇心日报"
const TITLE_SEPARATOR = /\s+[|\-–—:]\s+|[｜：_]/u;

/**
 * The site's name as the page's <title> ends with it ("… | Page Six", "… - MacRumors"): its last
 * part after a separator, of five words or fewer, when the part before it is longer; null when
 * the title is a headline alone.
 */
const siteNameInTitle = (page: Page): string | null => {
  const title = foldWhitespace(documentTitle(page)?.textContent ?? "");
  const parts = title.split(TITLE_SEPARATOR).map((part) => part.trim());
  const last = parts.at(-1) ?? "";
  const rest = parts.slice(0, -1).join(" ");
  if (parts.length < 2 || last === "" || countWords(last) > 5 || rest.length <= last.length) return null;
  return last;
};

/**
 * The site's name as the page gives it, and where: the name of its Organization or WebSite
 * JSON-LD, its og:site_name or application-name, or the end of its <title>; null when it names none.
 */
export const siteNameOf = (page: Page): { name: string; from: string } | null => {
  for (const node of jsonLd(page).nodes) {
    if (!isOrganization(node) && !typesOf(node).includes("WebSite")) continue;
    const name = textOf(node.name)?.trim();
    if (name) return { name, from: `its ${typesOf(node)[0]} JSON-LD` };
  }
  for (const key of ["og:site_name", "application-name"]) {
    const name = foldWhitespace(metaKeyed(page, key)?.getAttribute("content") ?? "");
    if (name) return { name, from: `its ${key}` };
  }
  const inTitle = siteNameInTitle(page);
  return inTitle ? { name: inTitle, from: "the end of its <title>" } : null;
};

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
  const name = siteNameInTitle(page);
  const logo = logoOf(page);
  return [
    name
      ? `"name": "${name}" (the site's name in the <title>)`
      : `"name" (the <title> names no site, so its owner must supply it)`,
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
