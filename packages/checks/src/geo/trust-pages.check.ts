import { defineCheck } from "../check";
import { clip } from "../lib/text";
import type { Page } from "../page";
import { type Anchor, anchors } from "../seo/anchors";
import { ownSites, publisherNames } from "./publisher";
import { siteLabelOf, siteOf } from "./site";

// link texts (whole, lower-cased) and path segments of about and contact pages, in the languages
// the other checks cover (en, de, es, fr, it, nl, pt), Chinese, Japanese and Korean
const ABOUT_TEXT =
  /^(?:about|about (?:us|me|the company|the team)|who we are|our story|our company|our mission|our team|company|team|company info(?:rmation)?|corporate info(?:rmation)?|über uns|uber uns|wir über uns|unternehmen|quiénes somos|quienes somos|sobre nosotros|nosotros|à propos|a propos|à propos de nous|qui sommes-nous|chi siamo|over ons|sobre nós|sobre|quem somos|关于我们|关于|關於我們|关于本站|公司简介|公司簡介|会社概要|会社案内|会社情報|企業情報|運営会社|私たちについて|当社について|このサイトについて|회사소개|회사 소개)$/u;
// "About Ars", "About the BBC": about and a name, as written (case kept); not "About this content"
const ABOUT_NAME = /^[Aa]bout (?:the )?\p{Lu}[\p{L}\p{N}&.'’-]*(?: \p{Lu}[\p{L}\p{N}&.'’-]*){0,3}$/u;
// "Contact BBC News", "Contact Wikipedia"; not "contact lenses"
const CONTACT_NAME = /^[Cc]ontact (?:the )?\p{Lu}[\p{L}\p{N}&.'’-]*(?: \p{Lu}[\p{L}\p{N}&.'’-]*){0,3}$/u;
const ABOUT_PATH =
  /^(?:about|about-?us|about_us|about-?me|company|our-?story|who-?we-?are|team|our-?team|ueber-?uns|uber-?uns|unternehmen|quienes-?somos|sobre-?nosotros|nosotros|a-?propos|qui-sommes-nous|chi-?siamo|over-?ons|sobre-?nos|sobre|quem-?somos)(?:\.\w+)?$/;
const CONTACT_TEXT =
  /^(?:联系我们|聯絡我們|聯繫我們|お問い合わせ|お問合せ|お問い合せ|問い合わせ|문의하기|contact|contact (?:us|me|the team|form|page|support|sales|press|info)\b.{0,30}|get in touch|write to us|kontakt|kontaktieren sie uns|impressum|imprint|contacto|contáctanos|contactanos|contactez-nous|nous contacter|contatti|contattaci|contato|fale conosco)$/u;
const CONTACT_PATH =
  /^(?:contact|contact-?us|contact_us|contact-?me|get-?in-?touch|kontakt|impressum|imprint|contacto|contactanos|contactez-?nous|nous-contacter|contatti|contattaci|contato|fale-?conosco)(?:\.\w+)?$/;

type Found = { anchor: Anchor; why: string };

// the last segment names the page: /en/about-us/ is an about page, /company/careers is not
const lastSegment = (url: URL): string =>
  url.pathname
    .toLowerCase()
    .split("/")
    .filter((segment) => segment !== "")
    .pop() ?? "";

// a listing of posts tagged or filed under "company" is no page about the company
const LISTING_PATH = /\/(?:tags?|category|categories|topics?|search|archives?)\//i;

const matches = (anchor: Anchor, href: URL, text: RegExp, path: RegExp): boolean =>
  text.test(anchor.text.toLowerCase()) || path.test(lastSegment(href));

// "About nytimes", "About 9to5Mac": about and the name the publisher goes by, however written
const ABOUT_ANY_NAME = /^about (?:the )?(.+)$/u;

const isAbout = (anchor: Anchor, href: URL, names: ReadonlySet<string>): boolean => {
  if (LISTING_PATH.test(href.pathname)) return false;
  const named = ABOUT_ANY_NAME.exec(anchor.text.toLowerCase())?.[1];
  return (
    ABOUT_NAME.test(anchor.text) ||
    (named !== undefined && names.has(named.trim())) ||
    matches(anchor, href, ABOUT_TEXT, ABOUT_PATH)
  );
};

/**
 * Whether a link leads to the publisher's own site: the registrable domain of the page's final
 * URL, its canonical URL, og:url or the url of its JSON-LD publisher, WebSite or WebPage
 * (`ownSites`), or a sister site of the same name under another suffix. A page served from a
 * mirror or a CDN host still has its about page on the publisher's site, and a corporate
 * subdomain (corporate.example.com) is the publisher's as much as www.example.com.
 */
const ownSite = (page: Page, href: URL): boolean => {
  const own = ownSites(page);
  const site = siteOf(href.hostname);
  return own.sites.has(site) || own.labels.has(siteLabelOf(site));
};

const isContactText = (anchor: Anchor): boolean =>
  CONTACT_NAME.test(anchor.text) || CONTACT_TEXT.test(anchor.text.toLowerCase());

const label = ({ anchor, why }: Found): string => {
  const href = anchor.href;
  const where = href && (href.protocol === "http:" || href.protocol === "https:") ? ` (${clip(href.href, 60)})` : "";
  return `${why} link "${clip(anchor.text || anchor.rawHref, 60)}"${where}`;
};

/**
 * Links to an about page and a contact page, judged by the whole link text or the last path
 * segment, in English, German, Spanish, French, Italian, Dutch, Portuguese, Chinese, Japanese or
 * Korean, or "About" and the publisher's name. The about page must be on the publisher's own
 * site (`ownSite`: the registrable domain of the page, its canonical URL, og:url or JSON-LD
 * publisher): articles link other sites' about pages.
 * A contact page may be elsewhere when its link text says so (help desks live on their own
 * domains). A mailto: link with an address or a tel: link counts as contact (a mailto: without
 * one is a share button), and so does a German Impressum, which must carry contact details. These are the signals of an accountable publisher in Google's
 * quality rater guidelines (E-E-A-T); their weight in AI answers is a heuristic.
 */
export const trustPages = defineCheck({
  id: "trust-pages",
  category: "geo",
  severity: "info",
  maxScore: 2,
  quick: false,
  title: "Links to about and contact pages",
  run: (page) => {
    const names = publisherNames(page);
    let about: Found | null = null;
    let contact: Found | null = null;
    for (const anchor of anchors(page)) {
      const href = anchor.href;
      if (!href) continue;
      if (href.protocol === "mailto:" || href.protocol === "tel:") {
        // "mailto:?subject=..." is a share-by-email button, not an address to write to
        if (!contact && href.pathname.trim() !== "") contact = { anchor, why: href.protocol.slice(0, -1) };
        continue;
      }
      if (href.protocol !== "http:" && href.protocol !== "https:") continue;
      const sameSite = ownSite(page, href);
      if (!about && sameSite && isAbout(anchor, href, names)) about = { anchor, why: "about" };
      else if (!contact && (isContactText(anchor) || (sameSite && CONTACT_PATH.test(lastSegment(href)))))
        contact = { anchor, why: "contact" };
      if (about && contact) break;
    }
    if (about && contact)
      return {
        status: "pass",
        description: `The page links to an about page and a contact page: ${label(about)}; ${label(contact)}.`,
        evidence: [label(about), label(contact)],
      };
    const found = about ?? contact;
    const missing = [about ? null : "About", contact ? null : "Contact"].filter((name) => name !== null);
    return {
      status: found ? "warn" : "fail",
      description: found
        ? `The page links to ${about ? "an about page" : "a contact page"} (${label(found)}) but not to ${about ? "a contact page" : "an about page"}.`
        : "The page links to neither an about page nor a contact page.",
      fix: `Link your ${missing.join(" and ")} page${missing.length > 1 ? "s" : ""} from every page of ${page.finalUrl.host}${found ? `, beside ${label(found)}` : ""}; the footer is the usual place.`,
      evidence: found ? [label(found)] : [],
    };
  },
});
