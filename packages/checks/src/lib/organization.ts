import { siteOf } from "../geo/site";
import { countWords, foldWhitespace, type Page } from "../page";
import { metaKeyed, metaNamed, resolveHref } from "../seo/head";
import { documentTitle } from "../seo/title.check";
import { type JsonLdNode, jsonLd, textOf, typesOf } from "./jsonld";

// schema.org's Organization and LocalBusiness trees are large; these are the types seen on real
// sites, and the suffix rule catches most of the rest (ShoeStore, AutomotiveBusiness, TravelAgency).
export const ORGANIZATION_TYPES = new Set([
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
export const ORGANIZATION_SUFFIX = /(?:Organization|Business|Store|Agency)$/;

export const isOrganization = (node: JsonLdNode): boolean =>
  typesOf(node).some((type) => ORGANIZATION_TYPES.has(type) || ORGANIZATION_SUFFIX.test(type));

/** A value read from the page and where it was found. */
export type Sourced = { value: string; source: string };

/** Whether a JSON-LD url value is on this site; a node that gives no url is taken at its word. */
const onSite = (page: Page, raw: unknown): boolean => {
  const text = textOf(raw);
  if (!text) return true;
  const url = resolveHref(page, text);
  return (
    url !== null &&
    (url.protocol === "http:" || url.protocol === "https:") &&
    siteOf(url.hostname) === siteOf(page.finalUrl.hostname)
  );
};

const metaText = (element: Element | null): string => foldWhitespace(element?.getAttribute("content") ?? "");

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

/** Where `siteNameOf` read a name it took from the end of the <title>: the one source that is a reading, not a declaration. */
export const TITLE_SUFFIX = "the end of its <title>";

/**
 * The site's name as the page gives it, and where: the JSON-LD WebSite name, else the name of an
 * Organization in the page's JSON-LD that is on this site (or says nothing of its URL), else
 * og:site_name, else application-name, else the end of its <title> (`siteNameInTitle`); null
 * when it names none. What the page declares comes first, its own structured data before its
 * metas: it names the site as the site asks engines to name it, where a meta tag is often a
 * page's or a template's leftover. A WebSite comes before an Organization, which may be the
 * site's owner ("Penske Media" for a magazine) or, off the site, a wire agency or syndicator.
 * The title's last part is read last, and said to be read there (`TITLE_SUFFIX`): it names the
 * site on most pages that declare no name (58 of the 101 pages of the second corpus: "Page
 * Six", "MacRumors", "朝日新聞デジタル"), but it is a reading, sometimes with a section ("CNN
 * Politics"), so a fix says where it came from and a generator notes it to be checked. The
 * llms-txt, structured-data, breadcrumb-schema and organization-schema fixes and the generators
 * (llms.txt, JSON-LD, AI catalog) all name the site by this one rule.
 */
export const siteNameOf = (page: Page): Sourced | null => {
  for (const node of jsonLd(page).nodes) {
    const name = typesOf(node).includes("WebSite") ? textOf(node.name) : null;
    if (name && foldWhitespace(name)) return { value: foldWhitespace(name), source: "JSON-LD WebSite name" };
  }
  for (const node of jsonLd(page).nodes) {
    const name = isOrganization(node) ? textOf(node.name) : null;
    if (name && foldWhitespace(name) && onSite(page, node.url))
      return { value: foldWhitespace(name), source: "JSON-LD Organization name" };
  }
  const og = metaText(metaKeyed(page, "og:site_name"));
  if (og) return { value: og, source: "og:site_name" };
  const app = metaText(metaNamed(page, "application-name"));
  if (app) return { value: app, source: "application-name" };
  const inTitle = siteNameInTitle(page);
  return inTitle ? { value: inTitle, source: TITLE_SUFFIX } : null;
};
