import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/**
 * One local HTTP server per AI engine vendor, answering in the vendor's documented wire format
 * (bodies shaped from the vendors' published examples). What a request gets is chosen by its
 * prompt: a prompt `scenario:<name>` gets that scenario, any other prompt a grounded answer
 * that names Acme and Globex and cites acme.com; ChatGPT and Perplexity answer a prompt ending in
 * `cites: <url> <url> …` citing exactly those URLs, in order, and Gemini cites them in order through
 * redirect links of its own server (`GET /grounding-api-redirect/<id>` answers a 302 to the page, as
 * Google's grounding links do). Every request is kept for the test to read.
 */

export type Vendor = "openai" | "anthropic" | "perplexity" | "gemini";
const VENDORS = ["openai", "anthropic", "perplexity", "gemini"] as const satisfies readonly Vendor[];
export const SCENARIOS = [
  "answer",
  "rate-limited",
  "unavailable",
  "server-error",
  "slow",
  "malformed",
  "refusal",
  "pause",
] as const;
export type Scenario = (typeof SCENARIOS)[number];

export const KEYS: Record<Vendor, string> = {
  openai: "sk-test-openai-0123456789abcdef",
  anthropic: "sk-ant-test-0123456789abcdef",
  perplexity: "pplx-test-0123456789abcdef",
  gemini: "AIzaTest0123456789abcdefghij",
};

export type SeenRequest = {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: unknown;
  /** when it arrived (ms since the epoch) */
  at: number;
  /** how long its answer was held back (the servers' latency), if it was */
  delayMs?: number;
};

export type EngineServer = {
  vendor: Vendor;
  baseUrl: string;
  requests: SeenRequest[];
  /** the next `count` requests, whatever their prompt, get the rate-limited scenario's 429 (with Retry-After) */
  rateLimitNext: (count: number) => void;
  close: () => Promise<void>;
};

/** How long the slow scenario waits before answering: longer than any test's time limit. */
export const SLOW_MS = 10_000;
export const RETRY_AFTER_SECONDS = 7;

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
};
const malformedBody = (res: ServerResponse) =>
  res
    .writeHead(200, { "content-type": "application/json" })
    .end('{"id": "x", "output": [{"type": "message", "content": [');

const scenarioOf = (prompt: unknown): Scenario => {
  const match = typeof prompt === "string" ? /^scenario:([a-z-]+)/.exec(prompt) : null;
  return (SCENARIOS as readonly string[]).includes(match?.[1] ?? "") ? (match?.[1] as Scenario) : "answer";
};

type Reply = (req: SeenRequest, res: ServerResponse) => void;

/**
 * How long an engine takes to answer, as real engines with web search do: a log-normal spread
 * around `medianMs`, clamped to [minMs, maxMs], drawn from a generator seeded per vendor, so a
 * benchmark sees the same delays on every run (in the order its requests arrive).
 */
export type Latency = { minMs: number; medianMs: number; maxMs: number; seed: number };

/** mulberry32: a small seeded generator of uniform numbers in [0, 1) */
const seeded = (seed: number) => {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

/** The delays of one vendor's answers, one a call, reproducible from the seed. */
export const latencyDraws = (latency: Latency, vendor: Vendor): (() => number) => {
  const uniform = seeded(latency.seed + VENDORS.indexOf(vendor) * 7919);
  // half the spread between the median and the longest wait is one standard deviation (in logs)
  const sigma = Math.log(latency.maxMs / latency.medianMs) / 2;
  return () => {
    // Box-Muller: one standard normal from two uniforms (1 - u keeps the log finite)
    const normal = Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
    const ms = latency.medianMs * Math.exp(sigma * normal);
    return Math.round(Math.min(latency.maxMs, Math.max(latency.minMs, ms)));
  };
};

const startServer = async (vendor: Vendor, reply: Reply, delayMs?: () => number): Promise<EngineServer> => {
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let limited = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      let body: unknown = null;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "null");
      } catch {
        body = null;
      }
      const seen: SeenRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body,
        at: Date.now(),
      };
      requests.push(seen);
      if (limited > 0) {
        limited -= 1;
        return reply({ ...seen, body: withPrompt(vendor, body, "scenario:rate-limited") }, res);
      }
      const prompt = promptOf(vendor, body);
      if (scenarioOf(prompt) === "slow") {
        const timer = setTimeout(() => reply({ ...seen, body: withPrompt(vendor, body, "plain") }, res), SLOW_MS);
        timers.add(timer);
        res.on("close", () => clearTimeout(timer));
        return;
      }
      if (!delayMs) return reply(seen, res);
      seen.delayMs = delayMs();
      const timer = setTimeout(() => {
        timers.delete(timer);
        reply(seen, res);
      }, seen.delayMs);
      timers.add(timer);
      res.on("close", () => clearTimeout(timer));
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    vendor,
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    rateLimitNext: (count) => {
      limited = count;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
};

type Body = Record<string, unknown> & {
  input?: unknown;
  messages?: Array<{ role?: string; content?: unknown }>;
  contents?: Array<{ parts?: Array<{ text?: unknown }> }>;
};

const promptOf = (vendor: Vendor, raw: unknown): unknown => {
  const body = (raw ?? {}) as Body;
  if (vendor === "openai") return body.input;
  if (vendor === "gemini") return body.contents?.[0]?.parts?.[0]?.text;
  return body.messages?.[0]?.content;
};

/** The body with its prompt replaced, so a slow request ends in an ordinary answer. */
const withPrompt = (vendor: Vendor, raw: unknown, prompt: string): unknown => {
  const body = structuredClone((raw ?? {}) as Body);
  if (vendor === "openai") body.input = prompt;
  else if (vendor === "gemini") body.contents = [{ parts: [{ text: prompt }] }];
  else body.messages = [{ role: "user", content: prompt }];
  return body;
};

// ---------------------------------------------------------------------------------------------
// OpenAI Responses API (https://platform.openai.com/docs/guides/tools-web-search, "Output and citations")

const OPENAI_TEXT =
  "For small teams, Acme is the most affordable project tracker, while Globex suits enterprises that need audit trails.";
const openaiError = (
  res: ServerResponse,
  status: number,
  message: string,
  type: string,
  code: string | null,
  headers = {},
) => json(res, status, { error: { message, type, param: null, code } }, headers);

const openaiReply: Reply = (req, res) => {
  if (req.method !== "POST" || req.path !== "/v1/responses")
    return openaiError(res, 404, `Invalid URL (${req.method} ${req.path})`, "invalid_request_error", null);
  if (req.headers.authorization !== `Bearer ${KEYS.openai}`)
    return openaiError(
      res,
      401,
      `Incorrect API key provided: ${String(req.headers.authorization).replace("Bearer ", "")}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      "invalid_request_error",
      "invalid_api_key",
    );
  const body = req.body as Body;
  const tools = (body.tools ?? []) as Array<{ type?: string }>;
  if (!tools.some((tool) => tool.type === "web_search"))
    return openaiError(res, 400, "This test server answers only web-search requests.", "invalid_request_error", null);
  const scenario = scenarioOf(body.input);
  if (scenario === "rate-limited")
    return openaiError(res, 429, "Rate limit reached for requests", "requests", "rate_limit_exceeded", {
      "retry-after": String(RETRY_AFTER_SECONDS),
    });
  if (scenario === "unavailable")
    return openaiError(res, 503, "The engine is currently overloaded, please try again later", "server_error", null);
  if (scenario === "server-error")
    return openaiError(res, 500, "The server had an error while processing your request.", "server_error", null);
  if (scenario === "malformed") return malformedBody(res);
  const asked = citesAsked(body.input);
  const message = (content: unknown[]) => ({
    id: "msg_67c9fa077e288190af08fdffda2e34f20be649c1a5ff9609",
    type: "message",
    status: "completed",
    role: "assistant",
    content,
  });
  const output =
    scenario === "refusal"
      ? [message([{ type: "refusal", refusal: "I'm sorry, but I can't help with that request." }])]
      : [
          {
            type: "web_search_call",
            id: "ws_67c9fa0502748190b7dd390736892e100be649c1a5ff9609",
            status: "completed",
            action: {
              type: "search",
              query: "best project tracker small teams",
              queries: ["best project tracker small teams"],
            },
          },
          {
            type: "web_search_call",
            id: "ws_67c9fa0502748190b7dd390736892e100be649c1a5ff9610",
            status: "completed",
            action: { type: "search", query: "acme vs globex pricing" },
          },
          message([
            {
              type: "output_text",
              text: OPENAI_TEXT,
              annotations: asked
                ? // each page a prompt ending in `cites: <url> …` names, in order, for the whole text
                  asked.map((url, i) => ({
                    type: "url_citation",
                    start_index: 0,
                    end_index: OPENAI_TEXT.length,
                    url,
                    title: `Source ${i + 1}`,
                  }))
                : [
                    {
                      type: "url_citation",
                      start_index: 0,
                      end_index: 70,
                      url: "https://www.acme.com/pricing/?utm_source=chatgpt.com",
                      title: "Acme pricing",
                    },
                    {
                      type: "url_citation",
                      start_index: 72,
                      end_index: OPENAI_TEXT.length,
                      url: "https://globex.io/enterprise?utm_source=chatgpt.com",
                      title: "Globex for enterprise",
                    },
                  ],
              logprobs: [],
            },
          ]),
        ];
  json(res, 200, {
    id: "resp_67ccd3a9da748190baa7f1570fe91ac604becb25c45c1d41",
    object: "response",
    created_at: 1741476777,
    status: "completed",
    error: null,
    incomplete_details: null,
    model: "gpt-5.1-2025-11-13",
    output,
    tools: [{ type: "web_search", search_context_size: "medium" }],
    usage: {
      input_tokens: 328,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 356,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 684,
    },
  });
};

// ---------------------------------------------------------------------------------------------
// Anthropic Messages API with the web search tool (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool)

const anthropicError = (res: ServerResponse, status: number, type: string, message: string, headers = {}) =>
  json(
    res,
    status,
    { type: "error", error: { type, message } },
    { "request-id": "req_011CSHoEeqs5C35K2UUqR7Fy", ...headers },
  );

const searchBlocks = (id: string, query: string) => [
  { type: "server_tool_use", id, name: "web_search", input: { query } },
  {
    type: "web_search_tool_result",
    tool_use_id: id,
    content: [
      {
        type: "web_search_result",
        url: "https://acme.com/blog/small-teams",
        title: "Project tracking for small teams",
        encrypted_content: "EqgfCioIARgBIiQ3YTAwMjY1Mi1mZjM5LTQ1NGUtODgxNC1kNjNjNTk1ZWI3Y",
        page_age: "April 30, 2025",
      },
    ],
  },
];

const anthropicReply: Reply = (req, res) => {
  if (req.method !== "POST" || req.path !== "/v1/messages")
    return anthropicError(res, 404, "not_found_error", `Not found: ${req.path}`);
  // the API takes the key as x-api-key or as a bearer token; the client sends the latter
  const key = req.headers["x-api-key"] ?? String(req.headers.authorization ?? "").replace(/^Bearer /, "");
  if (key !== KEYS.anthropic) return anthropicError(res, 401, "authentication_error", "invalid x-api-key");
  if (typeof req.headers["anthropic-version"] !== "string")
    return anthropicError(res, 400, "invalid_request_error", "anthropic-version: header is required");
  const body = req.body as Body;
  const tools = (body.tools ?? []) as Array<{ type?: string; name?: string }>;
  if (!tools.some((tool) => tool.type === "web_search_20250305" && tool.name === "web_search"))
    return anthropicError(res, 400, "invalid_request_error", "This test server answers only web-search requests.");
  const scenario = scenarioOf(body.messages?.[0]?.content);
  if (scenario === "rate-limited")
    return anthropicError(
      res,
      429,
      "rate_limit_error",
      "Number of request tokens has exceeded your per-minute rate limit",
      {
        "retry-after": String(RETRY_AFTER_SECONDS),
      },
    );
  if (scenario === "unavailable") return anthropicError(res, 529, "overloaded_error", "Overloaded");
  if (scenario === "server-error") return anthropicError(res, 500, "api_error", "Internal server error");
  if (scenario === "malformed") return malformedBody(res);
  const message = (content: unknown[], stop_reason: string, searches: number) => ({
    id: "msg_01SxGqq6QZ5hb4kbF3vzeStC",
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-6",
    content,
    stop_reason,
    stop_sequence: null,
    usage: {
      input_tokens: 6039,
      output_tokens: 931,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      server_tool_use: { web_search_requests: searches },
    },
  });
  if (scenario === "refusal") return json(res, 200, message([], "refusal", 0));
  const answer = [
    { type: "text", text: "Based on the search results, " },
    {
      type: "text",
      text: "Acme is a project tracker built for small teams",
      citations: [
        {
          type: "web_search_result_location",
          url: "https://acme.com/blog/small-teams",
          title: "Project tracking for small teams",
          encrypted_index: "Eo8BCioIAhgBIiQyYjQ0OWJmZi1lNm",
          cited_text: "Acme is a project tracker built for small teams of two to twenty people...",
        },
      ],
    },
    { type: "text", text: ", and Globex is the usual choice for large companies." },
  ];
  if (scenario === "pause") {
    const continued = (body.messages ?? []).some((m) => m.role === "assistant");
    if (!continued)
      return json(
        res,
        200,
        message(
          [{ type: "text", text: "Let me search for that." }, ...searchBlocks("srvtoolu_01", "acme project tracker")],
          "pause_turn",
          1,
        ),
      );
    return json(res, 200, message([...searchBlocks("srvtoolu_02", "globex enterprise"), ...answer], "end_turn", 1));
  }
  json(
    res,
    200,
    message(
      [
        { type: "text", text: "I'll search for project trackers that Acme and Globex make." },
        ...searchBlocks("srvtoolu_01WYG3ziw53XMcoyKL4XcZmE", "best project tracker small teams"),
        ...answer,
      ],
      "end_turn",
      1,
    ),
  );
};

// ---------------------------------------------------------------------------------------------
// Perplexity Sonar chat completions (https://docs.perplexity.ai/api-reference/chat-completions-post)

const PERPLEXITY_TEXT =
  "Acme is well reviewed for small teams [1][2]. Globex targets enterprises [3], and Initech is rarely recommended [2].";

/** The URLs a prompt ending in `cites: <url> <url> …` asks to be cited; null for any other prompt. */
const citesAsked = (prompt: unknown): string[] | null => {
  const match = typeof prompt === "string" ? /\bcites:\s*(.+)$/.exec(prompt) : null;
  return match?.[1] ? match[1].split(/\s+/).filter((url) => /^https?:\/\//.test(url)) : null;
};

const perplexityReply: Reply = (req, res) => {
  const error = (status: number, message: string, type: string, headers = {}) =>
    json(res, status, { error: { message, type, code: status } }, headers);
  if (req.method !== "POST" || req.path !== "/chat/completions") return error(404, "Not found", "not_found");
  if (req.headers.authorization !== `Bearer ${KEYS.perplexity}`)
    return error(401, "Invalid API key", "invalid_api_key");
  const body = req.body as Body;
  const scenario = scenarioOf(body.messages?.[0]?.content);
  if (scenario === "rate-limited")
    return error(429, "Rate limit exceeded", "rate_limit_exceeded", { "retry-after": String(RETRY_AFTER_SECONDS) });
  if (scenario === "unavailable") return error(503, "Service temporarily unavailable", "service_unavailable");
  if (scenario === "server-error") return error(500, "Internal server error", "internal_error");
  if (scenario === "malformed") return malformedBody(res);
  const refused = scenario === "refusal";
  const asked = citesAsked(body.messages?.[0]?.content);
  const citations = asked ?? [
    "https://acme.com/reviews",
    "https://www.g2.com/categories/project-management",
    "https://globex.io/",
  ];
  const text = asked
    ? `Acme and Globex are both compared in these sources ${asked.map((_, i) => `[${i + 1}]`).join("")}.`
    : PERPLEXITY_TEXT;
  json(res, 200, {
    id: "3c90c3cc-0d44-4b50-8888-8dd25736052a",
    model: "sonar",
    created: 1724369245,
    object: "chat.completion",
    usage: {
      prompt_tokens: 14,
      completion_tokens: 70,
      total_tokens: 84,
      search_context_size: "low",
      cost: { input_tokens_cost: 0.000014, output_tokens_cost: 0.00007, request_cost: 0.005, total_cost: 0.005084 },
    },
    citations,
    search_results: asked
      ? asked.map((url, i) => ({ title: `Source ${i + 1}`, url, date: null }))
      : [
          { title: "Acme reviews", url: "https://acme.com/reviews", date: "2025-03-02" },
          {
            title: "Best project management software",
            url: "https://www.g2.com/categories/project-management",
            date: null,
          },
          { title: "Globex", url: "https://globex.io/", date: "2024-11-20" },
        ],
    choices: [
      {
        index: 0,
        // the OpenAI-compatible finish reason for a filtered answer
        finish_reason: refused ? "content_filter" : "stop",
        message: { role: "assistant", content: refused ? "" : text },
        delta: { role: "assistant", content: "" },
      },
    ],
  });
};

// ---------------------------------------------------------------------------------------------
// Gemini API generateContent with Google Search grounding (https://ai.google.dev/gemini-api/docs/google-search)

/** Non-ASCII on purpose: Gemini's segment offsets count UTF-8 bytes, not characters. */
export const GEMINI_SENTENCES = [
  "Acme — the tracker small teams pick — costs €5 a seat.",
  " Globex serves enterprises; 日本ではGlobexも人気です。",
];

const geminiReply: Reply = (req, res) => {
  const error = (code: number, status: string, message: string, details: unknown[] = []) =>
    json(res, code, { error: { code, message, status, ...(details.length ? { details } : {}) } });
  // the grounding links' redirect: a 302 to the page (https://vertexaisearch.cloud.google.com/grounding-api-redirect/…)
  const hop = /^\/grounding-api-redirect\/([A-Za-z0-9_-]+)$/.exec(req.path)?.[1];
  if (req.method === "GET" && hop) {
    const target = URL.parse(Buffer.from(hop, "base64url").toString("utf8"));
    if (!target) return error(404, "NOT_FOUND", `Not found: ${req.path}`);
    return void res.writeHead(302, { location: target.toString(), "content-type": "text/html" }).end("");
  }
  const model = /^\/v1beta\/models\/([^/:]+):generateContent$/.exec(req.path.split("?")[0] ?? "")?.[1];
  if (req.method !== "POST" || !model) return error(404, "NOT_FOUND", `Not found: ${req.path}`);
  if (req.headers["x-goog-api-key"] !== KEYS.gemini)
    return error(400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.", [
      { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID", domain: "googleapis.com" },
    ]);
  const body = req.body as Body;
  const tools = (body.tools ?? []) as Array<Record<string, unknown>>;
  if (!tools.some((tool) => "googleSearch" in tool))
    return error(400, "INVALID_ARGUMENT", "Expected the googleSearch tool.");
  const scenario = scenarioOf(body.contents?.[0]?.parts?.[0]?.text);
  if (scenario === "rate-limited")
    return error(
      429,
      "RESOURCE_EXHAUSTED",
      "You exceeded your current quota, please check your plan and billing details.",
      [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: `${RETRY_AFTER_SECONDS}s` }],
    );
  if (scenario === "unavailable") return error(503, "UNAVAILABLE", "The model is overloaded. Please try again later.");
  if (scenario === "server-error") return error(500, "INTERNAL", "An internal error has occurred.");
  if (scenario === "malformed") return malformedBody(res);
  const usageMetadata = {
    promptTokenCount: 12,
    candidatesTokenCount: 40,
    toolUsePromptTokenCount: 300,
    totalTokenCount: 352,
  };
  if (scenario === "refusal")
    return json(res, 200, {
      promptFeedback: {
        blockReason: "SAFETY",
        safetyRatings: [{ category: "HARM_CATEGORY_DANGEROUS_CONTENT", probability: "HIGH" }],
      },
      usageMetadata: { promptTokenCount: 12, totalTokenCount: 12 },
      modelVersion: model,
    });
  const [first = "", second = ""] = GEMINI_SENTENCES;
  const bytes = (text: string) => Buffer.byteLength(text, "utf8");
  const redirect = (id: string) => `https://vertexaisearch.cloud.google.com/grounding-api-redirect/${id}`;
  const cites = citesAsked(body.contents?.[0]?.parts?.[0]?.text);
  if (cites) {
    // every cited page behind a redirect link of this server, as Gemini cites through its own
    const chunks = cites.map((url) => ({
      web: {
        uri: `http://${req.headers.host}/grounding-api-redirect/${Buffer.from(url).toString("base64url")}`,
        title: URL.parse(url)?.hostname ?? url,
      },
    }));
    return json(res, 200, {
      candidates: [
        {
          content: { parts: [{ text: first + second }], role: "model" },
          finishReason: "STOP",
          groundingMetadata: {
            webSearchQueries: ["best project tracker small teams"],
            groundingChunks: chunks,
            groundingSupports: [
              { segment: { endIndex: bytes(first), text: first }, groundingChunkIndices: chunks.map((_, i) => i) },
            ],
          },
        },
      ],
      usageMetadata,
      modelVersion: model,
    });
  }
  json(res, 200, {
    candidates: [
      {
        content: { parts: [{ text: first + second }], role: "model" },
        finishReason: "STOP",
        groundingMetadata: {
          webSearchQueries: ["best project tracker small teams", "acme pricing per seat"],
          searchEntryPoint: { renderedContent: "<!-- search suggestions -->" },
          groundingChunks: [
            { web: { uri: redirect("AUZIYQF1acme"), title: "acme.com" } },
            { web: { uri: redirect("AUZIYQF2globex"), title: "globex.io" } },
            { web: { uri: redirect("AUZIYQF3uncited"), title: "wikipedia.org" } },
          ],
          groundingSupports: [
            // a segment at the start of the part: proto3 leaves startIndex out
            { segment: { endIndex: bytes(first), text: first }, groundingChunkIndices: [0] },
            {
              segment: { startIndex: bytes(first), endIndex: bytes(first + second), text: second },
              groundingChunkIndices: [1, 0],
            },
          ],
        },
      },
    ],
    usageMetadata,
    modelVersion: model,
  });
};

const REPLIES: Record<Vendor, Reply> = {
  openai: openaiReply,
  anthropic: anthropicReply,
  perplexity: perplexityReply,
  gemini: geminiReply,
};

export type EngineServers = Record<Vendor, EngineServer> & { close: () => Promise<void> };

/** The four servers; with `latency`, every answer (the slow scenario aside) waits its drawn delay first. */
export const startEngineServers = async (options: { latency?: Latency } = {}): Promise<EngineServers> => {
  const { latency } = options;
  const [openai, anthropic, perplexity, gemini] = await Promise.all(
    VENDORS.map((vendor) => startServer(vendor, REPLIES[vendor], latency ? latencyDraws(latency, vendor) : undefined)),
  );
  if (!openai || !anthropic || !perplexity || !gemini) throw new Error("an engine server did not start");
  return {
    openai,
    anthropic,
    perplexity,
    gemini,
    close: async () => {
      await Promise.all([openai, anthropic, perplexity, gemini].map((server) => server.close()));
    },
  };
};

/**
 * The environment that points the service's engine clients at these servers: each vendor's key
 * and base URL (the OpenAI client's ends in /v1, as its SDK expects), of every vendor or of those
 * named. The local Gemini server's default answer cites through Google's real redirect host, so no
 * redirect host is followed here: a test that follows links names the local one itself.
 */
export const engineServersEnv = (
  servers: EngineServers,
  vendors: readonly Vendor[] = VENDORS,
): Record<string, string> => {
  const baseUrls: Record<Vendor, [string, string]> = {
    openai: ["OPENAI", `${servers.openai.baseUrl}/v1`],
    anthropic: ["ANTHROPIC", servers.anthropic.baseUrl],
    perplexity: ["PERPLEXITY", servers.perplexity.baseUrl],
    gemini: ["GEMINI", servers.gemini.baseUrl],
  };
  const env: Record<string, string> = { VISIBILITY_REDIRECT_HOSTS: "" };
  for (const vendor of vendors) {
    const [prefix, baseUrl] = baseUrls[vendor];
    env[`${prefix}_API_KEY`] = KEYS[vendor];
    env[`${prefix}_BASE_URL`] = baseUrl;
  }
  return env;
};
