import { defineCheck } from "../check";
import { metaNamed } from "./head";

/** `name=value` pairs of a viewport content string; separators are commas, semicolons or spaces. */
const viewportProperties = (content: string): Map<string, string> => {
  const properties = new Map<string, string>();
  for (const match of content.matchAll(/([^\s,;=]+)\s*=\s*([^\s,;=]*)/g)) {
    const [, key, value] = match;
    if (key) properties.set(key.toLowerCase(), (value ?? "").toLowerCase());
  }
  return properties;
};

/**
 * Lighthouse `viewport`: the first `<meta name="viewport">` sets `width` or `initial-scale`,
 * and no initial-scale below 1. We pass `width=device-width`, or `initial-scale` of 1 or
 * more with no fixed width (browsers then lay out at the device width). One deliberate
 * difference from Lighthouse: a fixed pixel width (`width=1024`) fails, because phones then
 * zoom out a desktop-width layout, which is what the tag is meant to prevent.
 */
export const viewport = defineCheck({
  id: "viewport",
  category: "seo",
  severity: "warning",
  maxScore: 4,
  quick: true,
  title: "Page is set up for mobile screens",
  run: (page) => {
    const meta = metaNamed(page, "viewport");
    const fix = 'Add <meta name="viewport" content="width=device-width, initial-scale=1"> in the <head>.';
    if (!meta) {
      return {
        status: "fail",
        description: "The page has no viewport meta tag; phones will render it at desktop width and shrink it.",
        fix,
        evidence: [],
      };
    }
    const content = (meta.getAttribute("content") ?? "").trim();
    const props = viewportProperties(content);
    const width = props.get("width");
    const scale = props.has("initial-scale") ? Number(props.get("initial-scale")) : null;
    if (scale !== null && !Number.isNaN(scale) && scale < 1) {
      return {
        status: "fail",
        description: `The viewport "${content}" sets initial-scale=${props.get("initial-scale")}, below 1, so the page starts zoomed out.`,
        fix: `Replace the viewport "${content}" with <meta name="viewport" content="width=device-width, initial-scale=1">.`,
        evidence: [content],
      };
    }
    if (width === "device-width" || (width === undefined && scale !== null && scale >= 1)) {
      return { status: "pass", description: `Viewport: "${content}".`, evidence: [content] };
    }
    return {
      status: "fail",
      description:
        width === undefined
          ? `The viewport meta tag ("${content}") sets neither width=device-width nor initial-scale.`
          : `The viewport "${content}" fixes the layout width at ${width} instead of width=device-width.`,
      fix: `Replace the viewport "${content}" with <meta name="viewport" content="width=device-width, initial-scale=1">.`,
      evidence: [content],
    };
  },
});
