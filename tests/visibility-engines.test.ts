import {
  analyseAnswer,
  askEngine,
  type EngineAnswer,
  type EngineConfig,
  EngineError,
  type EngineId,
} from "@scan/visibility";
import {
  type EngineServers,
  GEMINI_SENTENCES,
  KEYS,
  RETRY_AFTER_SECONDS,
  startEngineServers,
  type Vendor,
} from "./support/engine-servers";

/**
 * The engine adapters, with each vendor's official client library, against local servers that
 * speak the vendors' wire formats: answers, citations and queries read right, and every failure
 * the caller must tell apart arrives as its own kind.
 */

let servers: EngineServers;
beforeAll(async () => {
  servers = await startEngineServers();
});
afterAll(async () => {
  await servers.close();
});

const VENDOR: Record<EngineId, Vendor> = {
  chatgpt: "openai",
  claude: "anthropic",
  perplexity: "perplexity",
  gemini: "gemini",
};
const ENGINES = Object.keys(VENDOR) as EngineId[];

const configOf = (engine: EngineId, overrides: Partial<EngineConfig> = {}): EngineConfig => {
  const vendor = VENDOR[engine];
  const server = servers[vendor];
  const model = { chatgpt: "gpt-5.1", claude: "claude-sonnet-4-6", perplexity: "sonar", gemini: "gemini-2.5-flash" }[
    engine
  ];
  return {
    engine,
    apiKey: KEYS[vendor],
    baseUrl: vendor === "openai" ? `${server.baseUrl}/v1` : server.baseUrl,
    model,
    timeoutMs: 5_000,
    ...overrides,
  };
};

const failure = async (run: Promise<unknown>): Promise<EngineError> => {
  try {
    await run;
  } catch (error) {
    if (error instanceof EngineError) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
};

const brand = { names: ["Acme"], domains: ["acme.com"] };
const competitors = [
  { name: "Globex", domains: ["globex.io"] },
  { name: "Initech", domains: ["initech.com"] },
];

const marked = (answer: EngineAnswer) =>
  answer.citations.map((c) => (c.start === undefined ? null : answer.text.slice(c.start, c.end)));

describe("ChatGPT (OpenAI Responses API, web_search)", () => {
  it("reads the answer, its url_citation annotations and the searches it ran", async () => {
    const before = servers.openai.requests.length;
    const answer = await askEngine(configOf("chatgpt"), {
      text: "best project tracker for a small team?",
      locale: "de-DE",
    });
    const sent = servers.openai.requests[before]?.body as Record<string, unknown>;
    expect(sent).toMatchObject({
      model: "gpt-5.1",
      input: "best project tracker for a small team?",
      tools: [{ type: "web_search", user_location: { type: "approximate", country: "DE" } }],
    });
    expect(answer.engine).toBe("chatgpt");
    expect(answer.model).toBe("gpt-5.1-2025-11-13");
    expect(answer.text).toMatch(/^For small teams, Acme/);
    expect(answer.citations.map(({ url, rawUrl, position, title }) => ({ url, rawUrl, position, title }))).toEqual([
      {
        url: "https://www.acme.com/pricing",
        rawUrl: "https://www.acme.com/pricing/?utm_source=chatgpt.com",
        position: 1,
        title: "Acme pricing",
      },
      {
        url: "https://globex.io/enterprise",
        rawUrl: "https://globex.io/enterprise?utm_source=chatgpt.com",
        position: 2,
        title: "Globex for enterprise",
      },
    ]);
    expect(marked(answer)[0]).toBe("For small teams, Acme is the most affordable project tracker, while Gl");
    expect(answer.searchQueries).toEqual(["best project tracker small teams", "acme vs globex pricing"]);
    expect(answer.usage).toEqual({ inputTokens: 328, outputTokens: 356, searchCalls: 2 });
    // gpt-5.1 list prices: $1.25 / $10 per million tokens, $0.01 a search call
    expect(answer.costUsd).toBeCloseTo((328 * 1.25 + 356 * 10) / 1e6 + 2 * 0.01, 12);
  });

  it("maps a refusal content part to refused", async () => {
    expect(await failure(askEngine(configOf("chatgpt"), { text: "scenario:refusal" }))).toMatchObject({
      kind: "refused",
    });
  });
});

describe("Claude (Messages API, web_search_20250305)", () => {
  it("reads the text after the last search, its web_search_result_location citations and the queries", async () => {
    const before = servers.anthropic.requests.length;
    const answer = await askEngine(configOf("claude"), { text: "best project tracker for a small team?" });
    const sent = servers.anthropic.requests[before];
    expect(sent?.body).toMatchObject({
      model: "claude-sonnet-4-6",
      messages: [{ role: "user", content: "best project tracker for a small team?" }],
      tools: [{ type: "web_search_20250305", name: "web_search" }],
    });
    // the narration before the search names both companies, and is not the answer
    expect(answer.text).toBe(
      "Based on the search results, Acme is a project tracker built for small teams, and Globex is the usual choice for large companies.",
    );
    expect(answer.citations).toHaveLength(1);
    expect(answer.citations[0]).toMatchObject({
      url: "https://acme.com/blog/small-teams",
      position: 1,
      domain: "acme.com",
    });
    expect(marked(answer)).toEqual(["Acme is a project tracker built for small teams"]);
    expect(answer.searchQueries).toEqual(["best project tracker small teams"]);
    expect(answer.usage).toEqual({ inputTokens: 6039, outputTokens: 931, searchCalls: 1 });
    expect(answer.model).toBe("claude-sonnet-4-6");
  });

  it("continues a paused turn and counts both requests' usage", async () => {
    const before = servers.anthropic.requests.length;
    const answer = await askEngine(configOf("claude"), { text: "scenario:pause" });
    expect(servers.anthropic.requests.length - before).toBe(2);
    expect(answer.searchQueries).toEqual(["acme project tracker", "globex enterprise"]);
    expect(answer.usage).toEqual({ inputTokens: 2 * 6039, outputTokens: 2 * 931, searchCalls: 2 });
    expect(answer.text).toMatch(/^Based on the search results, Acme/);
  });

  it("maps stop_reason refusal to refused", async () => {
    expect(await failure(askEngine(configOf("claude"), { text: "scenario:refusal" }))).toMatchObject({
      kind: "refused",
    });
  });
});

describe("Perplexity (Sonar chat completions)", () => {
  it("reads citations in the order the text first marks them, with search_results titles", async () => {
    const answer = await askEngine(configOf("perplexity"), { text: "best project tracker for a small team?" });
    expect(answer.citations.map(({ url, position, title }) => ({ url, position, title }))).toEqual([
      { url: "https://acme.com/reviews", position: 1, title: "Acme reviews" },
      {
        url: "https://www.g2.com/categories/project-management",
        position: 2,
        title: "Best project management software",
      },
      { url: "https://globex.io", position: 3, title: "Globex" },
    ]);
    expect(marked(answer)).toEqual(["[1]", "[2]", "[3]"]);
    expect(answer.citations[1]?.spans).toHaveLength(2);
    expect(answer.searchQueries).toEqual([]);
    // Sonar reports its own cost, request fee included
    expect(answer.costUsd).toBe(0.005084);
    expect(answer.usage).toEqual({ inputTokens: 14, outputTokens: 70, searchCalls: 1 });
  });

  it("maps a content_filter finish to refused", async () => {
    expect(await failure(askEngine(configOf("perplexity"), { text: "scenario:refusal" }))).toMatchObject({
      kind: "refused",
    });
  });
});

describe("Gemini (generateContent, googleSearch)", () => {
  it("reads grounding chunks placed by supports, turning Gemini's byte offsets into text positions", async () => {
    const before = servers.gemini.requests.length;
    const answer = await askEngine(configOf("gemini"), { text: "best project tracker for a small team?" });
    const sent = servers.gemini.requests[before];
    expect(sent?.path).toBe("/v1beta/models/gemini-2.5-flash:generateContent");
    expect(sent?.body).toMatchObject({ tools: [{ googleSearch: {} }] });
    expect(answer.text).toBe(GEMINI_SENTENCES.join(""));
    expect(answer.citations.map(({ domain, position }) => ({ domain, position }))).toEqual([
      { domain: "acme.com", position: 1 },
      { domain: "globex.io", position: 2 },
      { domain: "wikipedia.org", position: 3 },
    ]);
    expect(answer.citations[0]?.spans.map((s) => answer.text.slice(s.start, s.end))).toEqual(GEMINI_SENTENCES);
    expect(marked(answer)).toEqual([GEMINI_SENTENCES[0], GEMINI_SENTENCES[1], null]);
    expect(answer.searchQueries).toEqual(["best project tracker small teams", "acme pricing per seat"]);
    expect(answer.usage).toEqual({ inputTokens: 312, outputTokens: 40, searchCalls: 1 });
  });

  it("maps a blocked prompt to refused", async () => {
    expect(await failure(askEngine(configOf("gemini"), { text: "scenario:refusal" }))).toMatchObject({
      kind: "refused",
    });
  });
});

describe("every engine", () => {
  it.each(ENGINES)("%s: the answer measures: Acme named first and cited, Globex named", async (engine) => {
    const answer = await askEngine(configOf(engine), { text: "best project tracker for a small team?" });
    const analysis = analyseAnswer(answer, brand, competitors);
    expect(analysis.brand).toMatchObject({ mentioned: true, position: 1, cited: true });
    expect(analysis.competitors[0]).toMatchObject({ name: "Globex", mentioned: true, position: 2 });
  });

  it.each(ENGINES)("%s: 429 is rate_limited with the wait the vendor asked for, tried once", async (engine) => {
    const server = servers[VENDOR[engine]];
    const before = server.requests.length;
    const error = await failure(askEngine(configOf(engine), { text: "scenario:rate-limited" }));
    expect(error).toMatchObject({
      kind: "rate_limited",
      status: 429,
      retryAfterMs: RETRY_AFTER_SECONDS * 1000,
      engine,
    });
    expect(server.requests.length - before).toBe(1);
  });

  it.each(ENGINES)("%s: 5xx is unavailable, tried once", async (engine) => {
    const server = servers[VENDOR[engine]];
    const before = server.requests.length;
    const overloaded = await failure(askEngine(configOf(engine), { text: "scenario:unavailable" }));
    expect(overloaded.kind).toBe("unavailable");
    expect(overloaded.status).toBeGreaterThanOrEqual(500);
    expect(await failure(askEngine(configOf(engine), { text: "scenario:server-error" }))).toMatchObject({
      kind: "unavailable",
      status: 500,
    });
    expect(server.requests.length - before).toBe(2);
  });

  it.each(ENGINES)(
    "%s: an answer slower than the time limit is a timeout, and so is the caller's abort",
    async (engine) => {
      const started = Date.now();
      const error = await failure(askEngine(configOf(engine, { timeoutMs: 300 }), { text: "scenario:slow" }));
      expect(error.kind).toBe("timeout");
      expect(Date.now() - started).toBeLessThan(3_000);
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const aborted = await failure(
        askEngine(configOf(engine), { text: "scenario:slow" }, { signal: controller.signal }),
      );
      expect(aborted.kind).toBe("timeout");
    },
  );

  it.each(ENGINES)("%s: a body that is not JSON is malformed", async (engine) => {
    expect(await failure(askEngine(configOf(engine), { text: "scenario:malformed" }))).toMatchObject({
      kind: "malformed",
    });
  });

  it.each(ENGINES)("%s: a wrong key is auth, and no part of it is in the error", async (engine) => {
    const wrongKey = `${KEYS[VENDOR[engine]].slice(0, 8)}WRONGKEY0123456789`;
    const error = await failure(askEngine(configOf(engine, { apiKey: wrongKey }), { text: "hello" }));
    // Gemini answers a bad key with 400 and the reason API_KEY_INVALID
    expect(error.kind).toBe("auth");
    const shown = `${error.message} ${JSON.stringify(error)} ${String(error.stack)}`;
    expect(shown).not.toContain(wrongKey);
    expect(shown).not.toContain("WRONGKEY");
  });

  it.each(ENGINES)(
    "%s: a configuration that cannot be priced or used is refused before any request",
    async (engine) => {
      const server = servers[VENDOR[engine]];
      const before = server.requests.length;
      expect(await failure(askEngine(configOf(engine, { model: "unknown-model-7" }), { text: "hello" }))).toMatchObject(
        {
          kind: "bad_request",
          message: expect.stringMatching(/no prices known for model unknown-model-7/),
        },
      );
      expect(await failure(askEngine(configOf(engine, { baseUrl: "not a url" }), { text: "hello" }))).toMatchObject({
        kind: "bad_request",
        message: expect.stringMatching(/baseUrl/),
      });
      expect(await failure(askEngine(configOf(engine), { text: "   " }))).toMatchObject({ kind: "bad_request" });
      expect(server.requests.length).toBe(before);
      const priced = await askEngine(
        configOf(engine, { model: "unknown-model-7", prices: { inputPerMTok: 1_000_000, outputPerMTok: 0 } }),
        { text: "hello" },
      );
      if (engine !== "perplexity") expect(priced.costUsd).toBe(priced.usage.inputTokens);
    },
  );
});
