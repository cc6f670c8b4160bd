import { siteOf } from "../geo/site";
import { foldWhitespace, type Page } from "../page";
import { metaKeyed, metaNamed, resolveHref } from "../seo/head";
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

/**
 * The site's name as the page gives it, and where: the JSON-LD WebSite name, else the name of an
 * Organization in the page's JSON-LD that is on this site (or says nothing of its URL), else
 * og:site_name, else application-name; null when it names none. The site's own structured data
 * comes first: it names the site as the site asks engines to name it, where a meta tag is often
 * a page's or a template's leftover. A WebSite comes before an Organization, which may be the
 * site's owner ("Penske Media" for a magazine) or, off the site, a wire agency or syndicator.
 * The title's "| Brand" suffix is not read: it cannot be told from the rest of a title ("Tide
 * tables: a guide", "Review - Part two"), and a name guessed from it would be written into
 * JSON-LD and llms.txt as the site's. The llms-txt, structured-data and breadcrumb-schema fixes
 * and the generators (llms.txt, JSON-LD, AI catalog) all name the site by this one rule.
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
  return null;
};
