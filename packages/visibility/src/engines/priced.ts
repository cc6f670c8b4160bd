import { costOf, type EngineAnswer, type EngineConfig, EngineError, pricesFor } from "../engine";

/** The answer with its cost: the vendor's own figure when it reports one, else usage at the configured or published prices. */
export const priced = (
  config: EngineConfig,
  answer: Omit<EngineAnswer, "costUsd">,
  reportedCostUsd?: number,
): EngineAnswer => {
  if (reportedCostUsd !== undefined && Number.isFinite(reportedCostUsd) && reportedCostUsd >= 0)
    return { ...answer, costUsd: reportedCostUsd };
  const prices = pricesFor(config);
  if (!prices)
    throw new EngineError(config.engine, "bad_request", `no prices known for model ${config.model}; configure prices`);
  return { ...answer, costUsd: costOf(answer.usage, prices) };
};
