import type { Verdict } from "./extract";

/**
 * Why a check's verdicts changed between two versions of the rules: per check, the rule
 * changes that move its verdicts (each with its reason, as docs/checks.md records it), and for
 * each changed verdict the change that moved it, told from the two verdicts. `notes` add what a
 * reviewer found on a page that the verdicts alone do not say.
 */

export type Change = { page: string; check: string; before: Verdict; after: Verdict };

type Rule = {
  /** the rule changes behind this check's new verdicts, and why they were made */
  rules: string;
  /** the rule change that moved one verdict, in a few words (first match wins) */
  cause: (change: Change) => string;
};

const MAIN_CONTENT =
  "main-content scope: only the headings of the main content count (its h1 included), never those of navigation, sidebars, teasers or widgets";

/** Quoted strings of a description: the quantities, sites or headings it names. */
const quotedIn = (text: string): string[] => [...text.matchAll(/"([^"]+)"/g)].map((match) => match[1] ?? "");

/** The sites of a citations-outbound description: "(a.com, b.org)". */
const sitesIn = (text: string): string[] => {
  const listed = /other sites? \(([^)]+)\)/.exec(text)?.[1];
  return listed ? listed.split(/,\s*/) : [];
};

const YEAR = /^(1[89]|20)\d\d$/;

const statisticsCause = ({ before, after }: Change): string => {
  const was = quotedIn(before.description).filter((quantity) => quantity !== "...");
  const now = after.evidence ?? quotedIn(after.description);
  const dropped = was.filter((quantity) => !now.includes(quantity));
  const added = now.filter((quantity) => !was.includes(quantity));
  const parts = [
    ...dropped.map(
      (quantity) => `"${quantity}" no longer counts (${YEAR.test(quantity) ? "a bare year" : "set in code"})`,
    ),
    ...added.map((quantity) =>
      /^[\p{L}\s-]+$/u.test(quantity.replace(/\s\S+$/, ""))
        ? `"${quantity}" counts (a number in words)`
        : `"${quantity}" counts`,
    ),
  ];
  return parts.length > 0 ? parts.join("; ") : "the same quantities over the main content's new scope";
};

export const REASONS: Record<string, Rule> = {
  "faq-schema": {
    rules:
      "Applicability: faq-schema applies to pages with FAQ content (FAQPage markup, or two or more question-and-answer pairs in the main content). One answered question is a section of an article, not an FAQ. Before, every page without FAQPage markup failed, FAQ content or not.",
    cause: ({ after }) =>
      /answers one question/.test(after.description)
        ? `skip: one answered question (${quotedIn(after.description)[0] ?? "a heading"}) is a section, not an FAQ`
        : "skip: no question-and-answer pairs in the main content, no FAQPage markup",
  },
  speakable: {
    rules:
      "Applicability: Google's speakable is a beta for news publishers; it applies to news articles only (NewsArticle or subtype in JSON-LD, readable or not; a NewsMediaOrganization; Google News's news_keywords meta; og:type article from a publisher whose name says news). Before, every page failed.",
    cause: ({ after }) =>
      `skip: not a news article (${/nothing marks this page as one \(([^)]*)\)/.exec(after.description)?.[1] ?? "no news type"})`,
  },
  "anchor-ids": {
    rules: `The ${MAIN_CONTENT}; ids are read on the page's own heading elements (an id on the wrapper a heading opens counts even where Readability rewrote the wrapper).`,
    cause: ({ after }) =>
      after.status === "skip"
        ? "main-content scope: none of the page's h2/h3 is a section of the main content"
        : "main-content scope: the main content's own h2/h3 are judged; headings elsewhere no longer count either way",
  },
  subheadings: {
    rules: `The ${MAIN_CONTENT}, or whose section holds nothing but links, or titled as a widget ("Related Searches"). A text under 300 words is not asked for sections (a product refinement of the catalogue's row): none skips, any passes; content-depth judges its length. A heading over a formula heads content.`,
    cause: ({ after }) => {
      if (/too short to need sections/.test(after.description))
        return "short text: under 300 words, no sections asked for";
      if (/enough for a short text/.test(after.description))
        return "short text: under 300 words, a subheading is enough";
      return "main-content scope: headings outside the main content, over links only or titled as widgets no longer count";
    },
  },
  "qa-content": {
    rules: `The ${MAIN_CONTENT}; a headline that opens by quoting a question is judged on its own words.`,
    cause: ({ before, after }) => {
      if (/only heading, h1/.test(after.description) || /None of/.test(after.description)) {
        return /question/.test(before.description) && before.status !== "fail"
          ? "main-content scope: the question headings counted before (see before) were teasers, sidebars or widgets, not the article's"
          : "the headline's question is a quotation";
      }
      return "the page's h1 (or its content's h1 sections) now counts, and it is a question";
    },
  },
  "answer-first": {
    rules: `Reads the question headings of the main content (the ${MAIN_CONTENT}) and the first block of text after each.`,
    cause: ({ after }) =>
      after.status === "skip"
        ? "main-content scope: the question headings of teasers and sidebars are gone; the article asks none"
        : "the main content's question heading (its h1 or a section's) is now read with its answer",
  },
  "summary-intro": {
    rules:
      "Judges the opening: passes over bylines, datelines, credits and lines of links (breadcrumbs) to the first real paragraph, fails an opening that only asks or only announces; words of Chinese and Japanese are segmented.",
    cause: ({ before }) =>
      /has 5 words/.test(before.description)
        ? "the first real paragraph is judged (before: a 5-word line ahead of it, or Chinese counted by spaces)"
        : "the opening is read past bylines, datelines and links",
  },
  statistics: {
    rules:
      "Reads the main content's prose without code; a bare year is no fact; numbers in words count with a unit, magnitude or percent word; English number words set as a name (Ninety Mile Beach) do not.",
    cause: statisticsCause,
  },
  quotations: {
    rules:
      "Knows the speech verbs and source phrases of eight languages, and names the speaker (an attributed quote is one whose speaker is named with a speech verb or source phrase).",
    cause: ({ after }) =>
      `attributed quote found: ${after.description.replace(/^The main content quotes a named source: /, "")}`,
  },
  author: {
    rules:
      'Reads visible bylines in seven languages ("By", "Posted by", "Written by", "Par", "Por", "Von", "Door"...), one byline of a one-author site\'s sidebar or header, and Open Graph article:author (a name or a profile URL).',
    cause: ({ after }) => `found ${after.description.replace(/^The page names its author: /, "")}`,
  },
  freshness: {
    rules:
      "Reads the page's own dates only (never a sidebar's or teaser's <time>); a dated news report passes whatever its age (its date says when it was news); the fix never advises moving a date alone.",
    cause: ({ after }) =>
      after.status === "pass" && /A dated news report/.test(after.description)
        ? `a dated news report (${/A dated news report \((.*?)\), (?:published|dated)/.exec(after.description)?.[1] ?? "news"}): its age is no fault`
        : "the only dates were beside the content, not the page's own",
  },
  "publish-date": {
    rules:
      "Reads the page's own dates: JSON-LD of the nodes describing the page, date metas, <time> of the main content, of the article or block around the h1, of <main>, or microdata-dated by the item that holds the content; a sidebar's or teaser's <time> is named as set aside.",
    cause: () => "its only <time> stands beside the content, not in it",
  },
  "citations-outbound": {
    rules:
      "The publisher's own sites are not outside sources: its canonical and og:url hosts, WebSite/Organization hosts, sister sites (the same name under another suffix) and its Organization's sameAs profiles.",
    cause: ({ before, after }) => {
      const was = sitesIn(before.description);
      const now = sitesIn(after.description);
      const gone = was.filter((site) => !now.includes(site));
      return gone.length > 0
        ? `no longer counted, as the publisher's own: ${gone.join(", ")}`
        : "the publisher's own sites set aside";
    },
  },
  "content-depth": {
    rules:
      "The main content carries the page's h1 (Readability leaves it out); Chinese, Japanese and Thai are segmented into words.",
    cause: ({ before, after }) =>
      `${/has (\d+) words/.exec(before.description)?.[1] ?? "?"} → ${/has (\d+) words/.exec(after.description)?.[1] ?? "?"} words: the h1 now counts`,
  },
  "article-schema": {
    rules:
      "A JSON-LD block that does not parse only because of a <![CDATA[ or <!-- wrapper is read for what it declares: the Article is present but unreadable, not missing.",
    cause: () => "JSON-LD wrapped in <![CDATA[ declares an Article that engines cannot read",
  },
};

/**
 * What a reviewer found on a page, for verdicts whose reason the descriptions do not tell whole
 * (keyed "check page"). Each was checked against the saved page.
 */
export const NOTES: Record<string, string> = {
  "statistics ars-1":
    '"30,000,000" stands in `<code>10^5 * 300 = 30,000,000</code>`; "300 lists" and "10 sublists" are counts the unit list does not know (a limit of the heuristic).',
  "statistics v8-blog": '"$0" and "$1" are in its shell snippets (`<code>`).',
  "statistics hukumusume": '"1949" was a sidebar\'s "1949年 Mr.マリック" (a year, beside the content).',
  "publish-date royal-road":
    'the <time> is in the "About the author" box under the chapter, not a date of the chapter.',
  "freshness royal-road": 'the <time> is in the "About the author" box under the chapter, not a date of the chapter.',
  "freshness medium-3":
    "Medium declares every post a NewsArticle in its (CDATA-wrapped) JSON-LD; the page says it is news, and the check takes it at its word.",
  "author bbc-1":
    'the author named is an organisation ("BBC News"): Google accepts an Organization as an article\'s author.',
  "author breitbart":
    'the byline\'s spans run together in the text ("Lucas Nolan" + "22 Dec 2016" + a comment count); the name read is Lucas Nolan.',
  "answer-first google-sre-book-1":
    '"Why Monitor?" opens with a 9-word lead-in ("There are many reasons to monitor a system, including:") and a definition list of long paragraphs: no 20-80 word answer an engine can quote whole.',
  "qa-content dropbox-blog":
    '"How we designed Dropbox ATF" opens with the interrogative "how", which the catalogue counts; a debatable question, kept.',
  "answer-first dropbox-blog":
    'the h1 "How we designed…" counts as a question (see qa-content); its 66-word opening answers it.',
  "citations-outbound schema-org-context-object": "the page is NBC News's (its canonical is nbcnews.com).",
  "citations-outbound iab-1": "the page is the IAB's own (iab.com).",
  "citations-outbound tumblr": "the page is a Tumblr post: tumblr.com is its host.",
  "citations-outbound breitbart": "the page is Breitbart's (breitbart.com).",
  "anchor-ids webmd-2":
    'the ids counted before were on headings outside the article; its one content heading, h3 "But First: What\'s a Superbug?", has none.',
  "summary-intro pixnet":
    'its post sets each line of Chinese in its own <p>; counted by spaces each was 1-2 words and the first line of 5 "words" was the campsite\'s phone and address.',
};

/** Why browser-free verdicts differ from real scans of the corpus, as reviewed. */
export const SCANNED_DIFFERENCES =
  "bot-access-parity is skipped here, where no page is fetched with the AI crawlers' user agents; the SEO ones are head elements that Chrome's parser moves into <body> where invalid markup closes the head early (an <iframe> or a document.write() in <head>: packages/checks/src/seo/lighthouse-agreement.test.ts), which only a real render shows; no AEO or GEO content check differs";
