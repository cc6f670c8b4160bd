import { defineCheck } from "../check";
import { jsonLd, typesOf } from "../lib/jsonld";

/**
 * A `speakable` property (schema.org SpeakableSpecification, by cssSelector or xpath, or a URL)
 * on any JSON-LD node: the passages fit for reading aloud by voice assistants. Google's
 * speakable is a beta for English news publishers; few engines read it, hence 1 point.
 */
export const speakable = defineCheck({
  id: "speakable",
  category: "aeo",
  severity: "info",
  maxScore: 1,
  quick: false,
  title: "Speakable parts are marked",
  run: (page) => {
    const owner = jsonLd(page).nodes.find((node) => node.speakable !== undefined && node.speakable !== null);
    if (owner) {
      const type = typesOf(owner)[0];
      return { status: "pass", description: `The ${type ?? "JSON-LD"} markup has a speakable property.` };
    }
    return {
      status: "fail",
      description: "No speakable property in the JSON-LD (a niche signal that few engines read).",
      fix: 'Add "speakable": {"@type": "SpeakableSpecification", "cssSelector": [".summary"]} to the page\'s Article or WebPage JSON-LD, pointing at a short summary.',
    };
  },
});
