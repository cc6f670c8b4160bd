import { defineCheck } from "../check";
import { type JsonLdNode, jsonLd, nodesOfType, textOf, typesOf, unreadableFix, unreadableNote } from "../lib/jsonld";
import { perPage } from "../lib/memo";
import { judgesContent } from "../lib/placeholder";
import { clip } from "../lib/text";
import type { Page } from "../page";
import { type QaPair, qaPairs } from "./qa-pairs";

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

/** Pairs as evidence: `h2 "How long does shipping take?"`, `<summary> "Can I return it?"` and how many more. */
const pairList = (pairs: readonly QaPair[], max = 3): string => {
  const named = pairs
    .slice(0, max)
    .map((pair) => `${pair.source === "details" ? "<summary>" : pair.element.localName} "${clip(pair.question, 60)}"`);
  const more = pairs.length - named.length;
  return `${named.join(", ")}${more > 0 ? ` and ${more} more` : ""}`;
};

// an FAQ is a list: one answered question in an article is a section, not a set of FAQs
const MIN_PAIRS = 2;

/**
 * Reads the page's FAQPage JSON-LD and the question-and-answer pairs of its main content
 * (qa-pairs.ts: question headings and `<details>` of the main content, each answered by eight
 * words or more). Passes with FAQPage markup whose mainEntity holds a Question with a name and
 * an acceptedAnswer with text (Google's required fields); questions elsewhere (a QAPage, a lone
 * Question) do not count. Fails when the page has FAQ content but no such markup: broken
 * FAQPage markup, FAQPage in a JSON-LD block that does not parse, or two or more visible pairs
 * unmarked. Skips when the page has no FAQ: no FAQPage markup and fewer than two pairs in its
 * main content (one answered question is a section of an article, not a list of FAQs).
 */
export const faqSchema = judgesContent(
  defineCheck({
    id: "faq-schema",
    category: "aeo",
    severity: "info",
    maxScore: 4,
    quick: false,
    title: "FAQ is marked up",
    run: (page) => {
      const faqs = nodesOfType(page, ["FAQPage"]);
      const questions = faqs.flatMap((faq) => targets(page, faq.mainEntity));
      const answered = questions.filter((question) => isAnswered(page, question));
      const pairs = qaPairs(page);
      const evidence = [
        ...answered.map((question) => textOf(question.name) ?? ""),
        ...pairs.map((pair) => pair.question),
      ];
      if (answered.length > 0) {
        const names = answered
          .slice(0, 2)
          .map((question) => `"${clip(textOf(question.name) ?? "", 60)}"`)
          .join(", ");
        return {
          status: "pass",
          description: `FAQPage markup with ${answered.length} answered question${answered.length === 1 ? "" : "s"}${answered.length < questions.length ? ` (of ${questions.length})` : ""}: ${names}${answered.length > 2 ? ", ..." : ""}. Google no longer shows FAQ rich results; the markup still helps engines pair questions with answers.`,
          evidence,
        };
      }
      const markUp =
        pairs.length > 0
          ? `Mark up the visible questions (${pairList(pairs)}) as FAQPage → mainEntity: Question (name) → acceptedAnswer: Answer (text), with the text as the page shows it.`
          : "Give each Question of the FAQPage a name and an acceptedAnswer with the answer's text, as the page shows it.";
      if (faqs.length > 0) {
        return {
          status: "fail",
          description:
            questions.length > 0
              ? `FAQPage markup has ${questions.length} question${questions.length === 1 ? "" : "s"}, none with a name and an acceptedAnswer with text.`
              : "FAQPage markup has no Question in its mainEntity.",
          fix: markUp,
          evidence,
        };
      }
      const unreadable = unreadableNote(page, ["FAQPage", "Question"]);
      if (jsonLd(page).unreadableNodes.some((node) => typesOf(node).includes("FAQPage"))) {
        return {
          status: "fail",
          description: `FAQPage markup is present but unreadable: ${unreadable}`,
          fix: unreadableFix(page, `its FAQPage${pairs.length > 0 ? ` of ${pairList(pairs, 2)}` : ""}`),
          evidence: [...evidence, unreadable],
        };
      }
      if (pairs.length >= MIN_PAIRS) {
        return {
          status: "fail",
          description: `The main content answers ${pairs.length} questions (${pairList(pairs)}) but has no FAQPage markup.${unreadable ? ` ${unreadable}` : ""}`,
          fix: markUp,
          evidence,
        };
      }
      return {
        status: "skip",
        description:
          pairs.length === 1
            ? `Not applicable: the main content answers one question (${pairList(pairs)}), a section rather than an FAQ, and has no FAQPage markup.`
            : "Not applicable: the main content holds no question-and-answer pairs (question headings or <details> with answers) and the page has no FAQPage markup.",
        evidence,
      };
    },
  }),
);
