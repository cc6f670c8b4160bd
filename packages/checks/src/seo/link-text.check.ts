import { defineCheck } from "../check";
import { clip } from "../lib/text";
import { type Anchor, anchors } from "./anchors";

/**
 * Generic link texts by primary language subtag. Lighthouse 12's lists (en, ja, es, pt, ko,
 * sv, de, ta, fa), extended with fr, it and nl, which docs/spec/checks.md requires, and with a few
 * common phrasings Lighthouse lacks for de, es and pt ("mehr erfahren", "leer más", "saiba mais").
 */
const GENERIC: Record<string, readonly string[]> = {
  en: [
    "click here",
    "click this",
    "go",
    "here",
    "information",
    "learn more",
    "more",
    "more info",
    "more information",
    "right here",
    "read more",
    "see more",
    "start",
    "this",
  ],
  ja: ["ここをクリック", "こちらをクリック", "リンク", "続きを読む", "続く", "全文表示"],
  es: [
    "click aquí",
    "click aqui",
    "clicka aquí",
    "clicka aqui",
    "pincha aquí",
    "pincha aqui",
    "haz clic aquí",
    "haz clic aqui",
    "aquí",
    "aqui",
    "más",
    "mas",
    "más información",
    "más informacion",
    "mas información",
    "mas informacion",
    "leer más",
    "leer mas",
    "ver más",
    "ver mas",
    "saber más",
    "saber mas",
    "este",
    "enlace",
    "este enlace",
    "empezar",
  ],
  pt: [
    "clique aqui",
    "ir",
    "mais informação",
    "mais informações",
    "mais",
    "veja mais",
    "saiba mais",
    "leia mais",
    "ler mais",
    "aqui",
  ],
  ko: ["여기", "여기를 클릭", "클릭", "링크", "자세히", "자세히 보기", "계속", "이동", "전체 보기"],
  sv: ["här", "klicka här", "läs mer", "mer", "mer info", "mer information"],
  de: [
    "klicke hier",
    "hier klicken",
    "klicken sie hier",
    "hier",
    "mehr",
    "mehr erfahren",
    "mehr lesen",
    "mehr informationen",
    "weitere informationen",
    "siehe",
    "dies",
    "das",
    "weiterlesen",
  ],
  ta: [
    "அடுத்த பக்கம்",
    "மறுபக்கம்",
    "முந்தைய பக்கம்",
    "முன்பக்கம்",
    "மேலும் அறிக",
    "மேலும் தகவலுக்கு",
    "மேலும் தரவுகளுக்கு",
    "தயவுசெய்து இங்கே அழுத்தவும்",
    "இங்கே கிளிக் செய்யவும்",
  ],
  fa: [
    "اطلاعات بیشتر",
    "اطلاعات",
    "این",
    "اینجا بزنید",
    "اینجا کلیک کنید",
    "اینجا",
    "برو",
    "بیشتر بخوانید",
    "بیشتر بدانید",
    "بیشتر",
    "شروع",
  ],
  fr: [
    "cliquez ici",
    "cliquer ici",
    "clique ici",
    "ici",
    "plus",
    "en savoir plus",
    "lire la suite",
    "lire plus",
    "voir plus",
    "plus d'infos",
    "plus d'informations",
    "suite",
    "lien",
    "ce lien",
  ],
  it: [
    "clicca qui",
    "fai clic qui",
    "qui",
    "più",
    "altro",
    "leggi di più",
    "leggi tutto",
    "scopri di più",
    "per saperne di più",
    "maggiori informazioni",
    "ulteriori informazioni",
    "continua a leggere",
    "questo link",
  ],
  nl: [
    "klik hier",
    "hier",
    "meer",
    "lees meer",
    "lees verder",
    "meer info",
    "meer informatie",
    "verder lezen",
    "deze link",
  ],
};

const LISTS = new Map(Object.entries(GENERIC).map(([lang, texts]) => [lang, new Set(texts)]));
const ALL = new Set(Object.values(GENERIC).flat());

const withoutFragment = (url: URL): string => url.href.replace(/#.*$/, "");

/** Lighthouse's reasons to leave a link out: no href, nofollow, javascript:/mailto:, or a jump within this page. */
const isAudited = (anchor: Anchor, pageUrl: string): boolean => {
  if (!anchor.hasHref || !anchor.href) return false;
  if ((anchor.element.getAttribute("rel") ?? "").toLowerCase().includes("nofollow")) return false;
  const protocol = anchor.href.protocol;
  return protocol !== "javascript:" && protocol !== "mailto:" && withoutFragment(anchor.href) !== pageUrl;
};

/**
 * Whether the link is in the content of a closed `<details>` (outside its summary): Chrome lays
 * that content out unseen (content-visibility: hidden), so its `innerText`, which Lighthouse
 * reads, is "" there. (An element under `hidden` or display:none is not laid out at all, and
 * its innerText is its whole text: those links are judged.)
 */
const inClosedDetails = (element: Element): boolean => {
  let child = element;
  for (let node = element.parentElement; node; child = node, node = node.parentElement) {
    if (node.localName === "details" && !node.hasAttribute("open") && child.localName !== "summary") return true;
  }
  return false;
};

const isGeneric = (anchor: Anchor): boolean => {
  const text = anchor.text.trim();
  if (text === "" || inClosedDetails(anchor.element)) return false;
  const term = text.toLowerCase();
  if (anchor.lang === "") return ALL.has(term);
  return LISTS.get(anchor.lang.split("-")[0] ?? "")?.has(term) ?? false;
};

/**
 * Lighthouse `link-text`: crawled links (with an href, not nofollow, not javascript:, mailto:
 * or a fragment of this page) whose whole text is generic ("click here", "read more", ...).
 * The list used is the link's language (nearest lang attribute); without one, every list. A
 * bare URL as link text is not flagged (Lighthouse 12.8 does not flag it either). Text is read as rendered text (scripts, styles and markup-hidden parts left out).
 * Some generic links warn; there is no fail, as docs/spec/checks.md says.
 */
export const linkText = defineCheck({
  id: "link-text",
  category: "seo",
  severity: "info",
  maxScore: 2,
  quick: false,
  title: "Links have descriptive text",
  run: (page) => {
    const pageUrl = withoutFragment(page.finalUrl);
    const audited = anchors(page).filter((anchor) => isAudited(anchor, pageUrl));
    const generic = audited.filter(isGeneric);
    if (generic.length === 0) {
      return {
        status: "pass",
        description: `None of the page's ${audited.length} links has generic text.`,
        evidence: [],
      };
    }
    const texts = [...new Set(generic.map((anchor) => `"${clip(anchor.text, 40)}"`))];
    return {
      status: "warn",
      description: `${generic.length} of ${audited.length} links have generic text: ${texts.slice(0, 5).join(", ")}${texts.length > 5 ? ", ..." : ""}.`,
      fix: `Make each link's text say what the page it leads to holds, in the words of that page's title, starting with ${generic
        .slice(0, 2)
        .map(
          (anchor) =>
            `"${clip(anchor.text, 40)}"${anchor.href ? ` (to ${clip(anchor.href.pathname + anchor.href.search, 60)})` : ""}`,
        )
        .join(" and ")}.`,
      evidence: texts,
    };
  },
});
