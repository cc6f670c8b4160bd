/**
 * Asks the real AI engines one prompt: `pnpm visibility:smoke "<prompt>" [--locale de-DE]
 * [--brand Acme --domain acme.com]`.
 *
 * Each engine whose key is in the environment is asked once, through the same adapters the
 * product uses, with web search on: OPENAI_API_KEY (ChatGPT), ANTHROPIC_API_KEY (Claude),
 * PERPLEXITY_API_KEY (Perplexity), GEMINI_API_KEY (Gemini). <VENDOR>_BASE_URL and <VENDOR>_MODEL
 * override the address and the model; <VENDOR>_PRICES ("input,output[,perSearch]" in US dollars
 * per million tokens and per search) prices a model the package does not know. Prints each
 * answer's summary: model, time, cost, the searches, the citations in order, and with --brand
 * whether the brand was named and cited. Exits 1 when no key is set or an engine failed.
 */
import { parseArgs } from "node:util";
import {
  analyseAnswer,
  askEngine,
  ENGINE_DEFAULTS,
  type EngineConfig,
  EngineError,
  type EngineId,
} from "@scan/visibility";
import { z } from "zod";

const VENDORS: Record<EngineId, string> = {
  chatgpt: "OPENAI",
  claude: "ANTHROPIC",
  perplexity: "PERPLEXITY",
  gemini: "GEMINI",
};

const Prices = z
  .string()
  .regex(/^\d+(\.\d+)?,\d+(\.\d+)?(,\d+(\.\d+)?)?$/, "expected input,output[,perSearch]")
  .transform((value) => {
    const [input = 0, output = 0, perSearch] = value.split(",").map(Number);
    return { inputPerMTok: input, outputPerMTok: output, ...(perSearch === undefined ? {} : { perSearch }) };
  });

const Env = z.object(
  Object.fromEntries(
    Object.values(VENDORS).flatMap((vendor) => [
      [`${vendor}_API_KEY`, z.string().min(1).optional()],
      [`${vendor}_BASE_URL`, z.url().optional()],
      [`${vendor}_MODEL`, z.string().min(1).optional()],
      [`${vendor}_PRICES`, Prices.optional()],
    ]),
  ),
);

const main = async () => {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      locale: { type: "string" },
      brand: { type: "string" },
      domain: { type: "string", multiple: true },
      "timeout-ms": { type: "string", default: "120000" },
    },
  });
  const prompt = positionals.join(" ").trim();
  if (prompt === "") {
    console.error('usage: pnpm visibility:smoke "<prompt>" [--locale de-DE] [--brand Acme --domain acme.com]');
    process.exit(2);
  }
  const parsed = Env.safeParse(process.env);
  if (!parsed.success) {
    console.error(`bad environment: ${parsed.error.issues.map((i) => i.path.join(".")).join(", ")}`);
    process.exit(2);
  }
  const env = parsed.data as Record<string, unknown>;
  const configs: EngineConfig[] = (Object.keys(VENDORS) as EngineId[]).flatMap((engine) => {
    const vendor = VENDORS[engine];
    const apiKey = env[`${vendor}_API_KEY`] as string | undefined;
    if (!apiKey) return [];
    const prices = env[`${vendor}_PRICES`] as EngineConfig["prices"];
    return [
      {
        engine,
        apiKey,
        model: (env[`${vendor}_MODEL`] as string | undefined) ?? ENGINE_DEFAULTS[engine].model,
        timeoutMs: Number(values["timeout-ms"]),
        ...(env[`${vendor}_BASE_URL`] ? { baseUrl: env[`${vendor}_BASE_URL`] as string } : {}),
        ...(prices ? { prices } : {}),
      },
    ];
  });
  if (configs.length === 0) {
    console.error(
      "no engine key set: set one of OPENAI_API_KEY, ANTHROPIC_API_KEY, PERPLEXITY_API_KEY, GEMINI_API_KEY",
    );
    process.exit(1);
  }
  let failed = false;
  const results = await Promise.all(
    configs.map(async (config) => {
      const started = Date.now();
      try {
        const answer = await askEngine(config, { text: prompt, ...(values.locale ? { locale: values.locale } : {}) });
        return { config, answer, ms: Date.now() - started };
      } catch (error) {
        return { config, error, ms: Date.now() - started };
      }
    }),
  );
  for (const result of results) {
    console.log(`\n== ${result.config.engine} (${result.config.model}) in ${(result.ms / 1000).toFixed(1)} s`);
    if ("error" in result) {
      failed = true;
      const e = result.error;
      console.log(
        e instanceof EngineError
          ? `failed: ${e.kind}${e.status ? ` (${e.status})` : ""}${e.retryAfterMs !== undefined ? `, retry after ${e.retryAfterMs} ms` : ""}: ${e.message}`
          : `failed: ${e instanceof Error ? e.message : String(e)}`,
      );
      continue;
    }
    const { answer } = result;
    const preview = answer.text.replace(/\s+/g, " ");
    console.log(
      `model ${answer.model}; ${answer.usage.inputTokens} in, ${answer.usage.outputTokens} out, ${answer.usage.searchCalls} search units; $${answer.costUsd.toFixed(4)}`,
    );
    console.log(
      `searched: ${answer.searchQueries.length > 0 ? answer.searchQueries.map((q) => JSON.stringify(q)).join(", ") : "(not reported)"}`,
    );
    console.log(`answer: ${preview.length > 400 ? `${preview.slice(0, 400)}…` : preview}`);
    console.log(`citations (${answer.citations.length}):`);
    for (const c of answer.citations)
      console.log(
        `  ${c.position}. ${c.url}${c.domain && !c.url.includes(c.domain) ? ` (${c.domain})` : ""}${c.title ? ` — ${c.title}` : ""}`,
      );
    if (values.brand) {
      const analysis = analyseAnswer(answer, { names: [values.brand], domains: values.domain ?? [] }, []);
      console.log(
        `${values.brand}: ${analysis.brand.mentioned ? `named ${analysis.brand.mentions}×` : "not named"}, ${analysis.brand.cited ? `cited (${analysis.brand.citedPages.map((p) => p.url).join(", ")})` : "not cited"}`,
      );
    }
  }
  process.exit(failed ? 1 : 0);
};

void main();
