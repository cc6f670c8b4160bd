import { defineCheck } from "../check";
import { type JsonLdNode, jsonLd, nodesOfType, textOf, typesOf } from "../lib/jsonld";
import { perPage } from "../lib/memo";
import type { Page } from "../page";

/** Typed nodes by `@id`, so that `{"@id": "#q1"}` in a mainEntity finds the Question a @graph holds. */
const nodesById = perPage((page: Page): ReadonlyMap<string, JsonLdNode> => {
  const byId = new Map<string, JsonLdNode>();
  for (const node of jsonLd(page).nodes) {
    const id = node["@id"];
    if (typeof id === "string" && typesOf(node).length > 0 && !byId.has(id)) byId.set(id, node);
  }
  return byId;
});

/** The nodes a property points at: inline objects, or references resolved by @id. */
const targets = (page: Page, value: unknown): JsonLdNode[] =>
  (Array.isArray(value) ? value : [value]).flatMap((item): JsonLdNode[] => {
    if (typeof item !== "object" || item === null || Array.isArray(item)) return [];
    const node = item as JsonLdNode;
    const id = node["@id"];
    const full = typesOf(node).length === 0 && typeof id === "string" ? nodesById(page).get(id) : undefined;
    return [full ?? node];
  });

/** A Question with a name and an acceptedAnswer whose text is not blank (Google's required fields). */
const isAnswered = (page: Page, question: JsonLdNode): boolean =>
  typesOf(question).includes("Question") &&
  textOf(question.name) !== null &&
  targets(page, question.acceptedAnswer).some((answer) => textOf(answer.text) !== null);

/**
 * FAQPage whose mainEntity holds at least one Question with an acceptedAnswer (with text).
 * Questions elsewhere (a QAPage, a lone Question) do not count: the rule is about FAQ markup.
 * Pages without FAQs fail too, as docs/spec/checks.md says; the check is info-level for that reason.
 */
export const faqSchema = defineCheck({
  id: "faq-schema",
  category: "aeo",
  severity: "info",
  maxScore: 4,
  quick: false,
  title: "FAQ is marked up",
  run: (page) => {
    const faqs = nodesOfType(page, ["FAQPage"]);
    const questions = faqs.flatMap((faq) => targets(page, faq.mainEntity));
    const answered = questions.filter((question) => isAnswered(page, question)).length;
    if (answered > 0) {
      return {
        status: "pass",
        description: `FAQPage markup with ${answered} answered question${answered === 1 ? "" : "s"}${answered < questions.length ? ` (of ${questions.length})` : ""}. Google no longer shows FAQ rich results; the markup still helps engines pair questions with answers.`,
      };
    }
    const fix =
      "If the page answers common questions, mark them up as FAQPage → mainEntity: Question (name) → acceptedAnswer: Answer (text), matching the visible text.";
    if (faqs.length > 0) {
      return {
        status: "fail",
        description:
          questions.length > 0
            ? `FAQPage markup has ${questions.length} question${questions.length === 1 ? "" : "s"}, none with a name and an acceptedAnswer with text.`
            : "FAQPage markup has no Question in its mainEntity.",
        fix,
      };
    }
    return { status: "fail", description: "No FAQPage markup on the page.", fix };
  },
});
