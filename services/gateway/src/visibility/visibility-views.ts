import type { CompetitorView, EngineKeyView, PromptView } from "@scan/contract";
import type { Competitor, EngineKey, VisibilityPrompt } from "@scan/db";

export const toPromptView = (prompt: VisibilityPrompt): PromptView => ({
  id: prompt.id,
  site_id: prompt.siteId,
  text: prompt.text,
  topic: prompt.topic,
  tags: prompt.tags,
  locale: prompt.locale,
  created_at: prompt.createdAt.toISOString(),
  updated_at: prompt.updatedAt.toISOString(),
});

export const toCompetitorView = (competitor: Competitor): CompetitorView => ({
  id: competitor.id,
  site_id: competitor.siteId,
  name: competitor.name,
  aliases: competitor.aliases,
  domains: competitor.domains,
  created_at: competitor.createdAt.toISOString(),
  updated_at: competitor.updatedAt.toISOString(),
});

/** An engine key as shown: never the sealed key, only the last four characters kept beside it. */
export const toEngineKeyView = (
  key: Pick<EngineKey, "engine" | "model" | "keyLast4" | "createdAt" | "updatedAt">,
): EngineKeyView => ({
  engine: key.engine,
  model: key.model,
  key_last4: key.keyLast4,
  created_at: key.createdAt.toISOString(),
  updated_at: key.updatedAt.toISOString(),
});

/** Newest first, the id breaking ties: pages neither repeat nor skip a row. */
export const NEWEST_FIRST = [{ createdAt: "desc" as const }, { id: "desc" as const }];
