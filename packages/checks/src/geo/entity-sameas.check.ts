import { defineCheck } from "../check";
import { type JsonLdNode, jsonLd, textOf, typesOf, unreadableFix, unreadableNote } from "../lib/jsonld";
import type { Page } from "../page";
import { anchors } from "../seo/anchors";
import { isSocialProfile } from "./citations-outbound.check";

// Organization's subtypes are many; the common ones by name, the rest by their usual suffixes
// (ShoeStore, TravelAgency, NewsMediaOrganization). Person has no subtypes in use.
const ENTITY_TYPES = new Set([
  ...["Organization", "Corporation", "LocalBusiness", "OnlineBusiness", "NGO", "Consortium", "Project"],
  ...["School", "CollegeOrUniversity", "Restaurant", "Hotel", "Airline", "SportsTeam", "MusicGroup"],
  ...["PerformingGroup", "Library", "Hospital", "Physician", "Dentist", "Attorney", "RealEstateAgent"],
  ...["ProfessionalService", "FinancialService", "LegalService", "AccountingService", "Person"],
]);
// not "Service": Service itself and most *Service types are offerings, not organizations
const ENTITY_SUFFIX = /(?:Organization|Business|Store|Agency)$/;

const isEntity = (node: JsonLdNode): boolean =>
  typesOf(node).some((type) => ENTITY_TYPES.has(type) || ENTITY_SUFFIX.test(type));

const httpUrl = (text: string | null): URL | null => {
  if (text === null || !/^https?:\/\//i.test(text)) return null;
  try {
    return new URL(text);
  } catch {
    return null;
  }
};

const profileUrls = (value: unknown): URL[] =>
  (Array.isArray(value) ? value : [value])
    .map((item) => httpUrl(typeof item === "string" ? item.trim() : textOf(item)))
    .filter((url): url is URL => url !== null);

type Entity = { name: string; type: string; profiles: Set<string> };

/**
 * Reads the page's JSON-LD for an Organization or Person (subtypes included) with `sameAs` links to its profiles
 * elsewhere (Wikipedia, Wikidata, LinkedIn, ...): they tie the page's entity to what answer
 * engines already know about it. Nodes that share an @id are one entity (Yoast and others split
 * an entity across @graph members), and the entity with the most distinct profiles is judged.
 */
/**
 * The "sameAs" to propose from the page's own links to its publisher's profiles (an account on a
 * social network linked outside any <article>, where a site says "follow us"; an article's links
 * are its author's or its sources'), or that the owner must supply them when it links none.
 */
const sameAsOfPage = (page: Page): string => {
  const profiles = new Set<string>();
  for (const anchor of anchors(page)) {
    if (!anchor.href || anchor.element.closest("article") !== null || !isSocialProfile(anchor.href)) continue;
    profiles.add(anchor.href.href);
  }
  const found = [...profiles].slice(0, 5);
  return found.length > 0
    ? `"sameAs": [${found.map((url) => `"${url}"`).join(", ")}], the profiles the page links, and its Wikidata and Wikipedia entries if it has them`
    : `"sameAs" listing its profiles elsewhere (Wikidata, Wikipedia, LinkedIn, official social accounts): the page links none, so its owner must supply them`;
};

export const entitySameas = defineCheck({
  id: "entity-sameas",
  category: "geo",
  severity: "info",
  maxScore: 2,
  quick: false,
  title: "Entity is linked to its profiles",
  run: (page) => {
    const entities = new Map<unknown, Entity>();
    for (const node of jsonLd(page).nodes) {
      if (!isEntity(node)) continue;
      const id = typeof node["@id"] === "string" ? node["@id"] : node;
      const entity = entities.get(id) ?? { name: "", type: typesOf(node)[0] ?? "Organization", profiles: new Set() };
      entity.name ||= textOf(node.name) ?? "";
      for (const url of profileUrls(node.sameAs)) entity.profiles.add(url.href);
      entities.set(id, entity);
    }
    const best = [...entities.values()].sort((a, b) => b.profiles.size - a.profiles.size)[0];
    if (!best) {
      const declared = jsonLd(page).unreadableNodes.find(isEntity);
      if (declared) {
        const name = textOf(declared.name);
        return {
          status: "fail",
          description: `${typesOf(declared)[0]}${name ? ` "${name}"` : ""} is present but unreadable: ${unreadableNote(page)}`,
          fix: unreadableFix(page, `its ${typesOf(declared)[0]}${name ? ` "${name}"` : ""} and its sameAs profiles`),
          evidence: [typesOf(declared)[0] ?? "", name ?? ""],
        };
      }
      const note = unreadableNote(page);
      return {
        status: "fail",
        description: `The page's JSON-LD has no Organization or Person to link to profiles${note ? `; ${note}` : "."}`,
        fix: `${note ? `${unreadableFix(page)} ` : ""}Add Organization (or, for a personal site, Person) JSON-LD with ${sameAsOfPage(page)}.`,
        evidence: [note],
      };
    }
    const label = `${best.type} "${best.name || "(unnamed)"}"`;
    const hosts = [...best.profiles].map((url) => new URL(url).hostname.replace(/^www\./, "")).slice(0, 5);
    const evidence = [label, ...best.profiles];
    if (best.profiles.size >= 2)
      return {
        status: "pass",
        description: `${label} has ${best.profiles.size} sameAs profiles (${hosts.join(", ")}).`,
        evidence,
      };
    return {
      status: best.profiles.size === 1 ? "warn" : "fail",
      description:
        best.profiles.size === 1
          ? `${label} has one sameAs profile (${hosts.join(", ")}); two or more tie it more firmly to what answer engines know.`
          : `${label} has no sameAs profiles.`,
      fix: `Add "sameAs": [...] to the ${label} JSON-LD with the URLs of its profiles elsewhere: Wikipedia, Wikidata, LinkedIn, official social accounts${best.profiles.size === 1 ? `, beside ${hosts[0]}` : ""}.`,
      evidence,
    };
  },
});
