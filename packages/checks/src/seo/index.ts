import type { CheckDefinition } from "../check";
import { canonical } from "./canonical.check";
import { charset } from "./charset.check";
import { crawlableAnchors } from "./crawlable-anchors.check";
import { h1 } from "./h1.check";
import { headingOrder } from "./heading-order.check";
import { hreflang } from "./hreflang.check";
import { httpStatus } from "./http-status.check";
import { https } from "./https.check";
import { imageAlt } from "./image-alt.check";
import { indexable } from "./indexable.check";
import { lang } from "./lang.check";
import { linkText } from "./link-text.check";
import { metaDescription } from "./meta-description.check";
import { metaDescriptionLength } from "./meta-description-length.check";
import { mixedContent } from "./mixed-content.check";
import { openGraph } from "./open-graph.check";
import { redirectChain } from "./redirect-chain.check";
import { robotsTxt } from "./robots-txt.check";
import { sitemap } from "./sitemap.check";
import { title } from "./title.check";
import { titleLength } from "./title-length.check";
import { ttfb } from "./ttfb.check";
import { twitterCard } from "./twitter-card.check";
import { viewport } from "./viewport.check";

/** The SEO checks of docs/spec/checks.md, in its order. */
export const seoChecks: CheckDefinition[] = [
  httpStatus,
  redirectChain,
  https,
  ttfb,
  title,
  titleLength,
  metaDescription,
  metaDescriptionLength,
  indexable,
  canonical,
  h1,
  headingOrder,
  lang,
  viewport,
  charset,
  imageAlt,
  linkText,
  crawlableAnchors,
  hreflang,
  robotsTxt,
  sitemap,
  openGraph,
  twitterCard,
  mixedContent,
];
