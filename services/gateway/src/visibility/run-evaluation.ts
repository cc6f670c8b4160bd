import { type CitationObservation, observationsOfRun, type StoredAnswer } from "@scan/citation-evaluator";
import type { Db } from "@scan/db";
import { domainOf, hostIsOnDomain } from "@scan/visibility";
import { z } from "zod";
import { runNotFound } from "./run-service";

/** A stored run's answers as the evaluator's observations, with the samples they came from in the same order. */
export type RunObservations = { runId: string; sampleIds: string[]; observations: CitationObservation[] };

export type RunObservationReader = (workspaceId: string, runId: string) => Promise<RunObservations>;

const StoredAnswerColumns = z.object({
  citations: z.array(z.object({ url: z.string(), domain: z.string() })).catch([]),
  mentions: z.array(z.object({ kind: z.enum(["brand", "competitor"]), position: z.int() })).catch([]),
});

/**
 * Reads a run of the workspace (another's, or an unknown one, is 404) and gives its completed
 * answers to the evaluator, in the order of its samples list (prompt, engine, index). The brand
 * is the profile's main name; its site is the site's own address when the site's domain is one
 * of the brand's domains, else the first brand domain: the evaluator judges a citation by whether
 * its registrable domain is that site's.
 */
export const createRunObservationReader =
  (db: Db): RunObservationReader =>
  async (workspaceId, runId) => {
    const run = await db.visibilityRun.findFirst({
      where: { id: runId, workspaceId },
      select: {
        id: true,
        site: { select: { name: true, url: true, domain: true, visibilityProfile: true } },
      },
    });
    if (!run) throw runNotFound(runId);
    const samples = await db.visibilitySample.findMany({
      where: { runId: run.id, status: "completed" },
      orderBy: [{ promptText: "asc" }, { promptId: "asc" }, { engine: "asc" }, { sampleIndex: "asc" }],
      select: { id: true, answerText: true, citations: true, mentions: true },
    });
    const { site } = run;
    const domains = site.visibilityProfile?.brandDomains ?? [site.domain];
    const first = domains[0];
    const targetUrl =
      first === undefined || domains.some((domain) => hostIsOnDomain(site.domain, domain))
        ? site.url
        : `https://${domainOf(first)}/`;
    const answers: StoredAnswer[] = samples.map((sample) => ({
      answerText: sample.answerText,
      ...StoredAnswerColumns.parse({ citations: sample.citations ?? [], mentions: sample.mentions ?? [] }),
    }));
    return {
      runId: run.id,
      sampleIds: samples.map((sample) => sample.id),
      observations: observationsOfRun(
        { brandName: site.visibilityProfile?.brandNames[0] ?? site.name, targetUrl },
        answers,
      ),
    };
  };
