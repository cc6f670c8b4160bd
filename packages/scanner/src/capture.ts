import type { AgentCapture, RenderFailureCode, ScanMode, Snapshot, Subresource, TextResource } from "@scan/contract";
import { vetTarget } from "@scan/platform";
import type { Page, Route } from "playwright-core";
import { type AgentRecorder, startAgentCapture } from "./agent-capture";
import type { ScanPage } from "./browser-pool";
import { decodeBody } from "./decode";
import { fetchDocument } from "./document-fetch";
import { accessHeadersFor, type FetchPolicy, fetchOnce, TargetError } from "./http-fetch";
import { judgeServedHtml, type QuickRender } from "./render-policy";
import { fetchAsBots, fetchLlmsTxt, fetchRobotsTxt, fetchSitemap } from "./site-files";

export type CaptureLimits = {
  /** the whole capture, fetch and render, ends by this many ms after it starts */
  scanTimeoutMs: number;
  /** how long the page may take to settle once its HTML is in the browser */
  settleTimeoutMs: { quick: number; full: number };
  maxHtmlBytes: number;
  maxRedirects: number;
  /** quick scans: judge the served HTML unless scripts may change it (auto), or always/never render */
  quickRender: QuickRender;
  /**
   * captures (fetch and render) at once per process, the others waiting their turn, so that
   * one scan's checks run while the next one renders; 0 or unset: as many as scans
   */
  rendersAtOnce?: number;
};

/**
 * What the render does not need to load. Checks judge markup, not pixels: images are judged
 * by their <img> attributes, fonts and media never change the DOM, and stylesheets do not add
 * content (Readability and every check read the DOM, not layout). Blocking them is most of
 * what makes a render fast. Scripts, XHR/fetch and documents (iframes) run, because
 * client-rendered pages build their content with them. Requests are still recorded, so
 * mixed-content sees what the page asked for.
 */
export const BLOCKED_RESOURCE_TYPES: ReadonlySet<string> = new Set([
  "image",
  "media",
  "font",
  "stylesheet",
  "texttrack",
  "manifest",
  "websocket",
  "eventsource",
  "ping",
  "beacon",
  "other",
]);

const HOP_BY_HOP = new Set(["content-encoding", "content-length", "transfer-encoding", "connection", "keep-alive"]);

/** serialising the DOM and closing a context take milliseconds; longer means the page is stuck */
const CONTENT_TIMEOUT_MS = 3000;
/**
 * What a render keeps of the scan's budget for reading its DOM: the wait for the page to settle
 * ends this long before the deadline (a quarter of the budget, at most CONTENT_TIMEOUT_MS), so a
 * page that never settles is read with time to spare, not given the last moment of the budget,
 * in which a loaded machine cannot serialise it and the page would be called unreadable.
 */
export const readReserveMs = (scanTimeoutMs: number): number =>
  Math.min(CONTENT_TIMEOUT_MS, Math.round(scanTimeoutMs / 4));
/**
 * axe over a large page takes a second or two on an idle machine, and ten times that on one at a
 * load of 25: it is given what is left of the scan's budget, so that its verdict does not depend
 * on the machine's load while the scan is within its budget, and a page that still keeps it busy
 * is reported as not measured, with the time it was given
 */
const AGENT_AUDIT_MIN_MS = 250;

const withTimeout = <T>(promise: Promise<T>, ms: number): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });

const isServerError = (status: number) => status >= 500;

/**
 * What a capture gives: the snapshot the page checks judge, and a full scan's agentic
 * measurements, which may still be running in Chromium (axe-core) when the snapshot is ready.
 * `agent` never rejects: null when nothing was measured (a quick scan, a render that failed);
 * the render's context closes once it has settled.
 */
export type CapturedPage = { snapshot: Snapshot; agent: Promise<AgentCapture | null> };

const NO_AGENT: Promise<AgentCapture | null> = Promise.resolve(null);

/**
 * Captures one page: the document fetched hop by hop (statuses, headers, TTFB, raw HTML),
 * robots.txt and llms.txt of the origin fetched in parallel, then the same bytes rendered in
 * a fresh browser context (the browser never fetches the document again), and in full mode
 * the sitemap and the AI-crawler fetches while it renders. A quick scan of a server-rendered
 * page is judged on its served HTML, parsed as a browser parses it, without a render
 * (render-policy.ts says when scripts make a render necessary).
 */
export const captureSnapshot = async (
  openPage: () => Promise<ScanPage>,
  target: { url: string; mode: ScanMode },
  policy: FetchPolicy,
  limits: CaptureLimits,
  /** called with a full scan's HTML as served when the page is about to render, to be read meanwhile */
  onRender?: (rawHtml: string) => void,
): Promise<CapturedPage> => {
  const deadline = Date.now() + limits.scanTimeoutMs;
  const requested = new URL(target.url);
  const robotsEarly = fetchRobotsTxt(requested.origin, policy, deadline);
  const llmsEarly = fetchLlmsTxt(requested.origin, policy, deadline);
  const document = await fetchDocument(requested, policy, {
    deadline,
    maxBytes: limits.maxHtmlBytes,
    maxRedirects: limits.maxRedirects,
  });
  const { final } = document;
  if (isServerError(final.status)) throw new TargetError(`${final.url} answered ${final.status}`, final.status);
  const finalUrl = new URL(final.url);
  // the final origin's files are the ones that govern the page
  const sameOrigin = finalUrl.origin === requested.origin;
  const robotsTxt = sameOrigin ? robotsEarly : fetchRobotsTxt(finalUrl.origin, policy, deadline);
  const llmsTxt = sameOrigin ? llmsEarly : fetchLlmsTxt(finalUrl.origin, policy, deadline);
  const full = target.mode === "full";
  const sitemap: Promise<TextResource | null> = full
    ? robotsTxt.then((robots) => fetchSitemap(finalUrl.origin, robots, policy, deadline))
    : Promise.resolve(null);
  const botFetches = full
    ? fetchAsBots(finalUrl, policy, { deadline, maxBytes: limits.maxHtmlBytes })
    : Promise.resolve([]);

  const rawHtml = decodeBody(final.body, final.headers["content-type"]);
  const isDocument = final.status < 300 && rawHtml.trim() !== "";
  const served = !full && isDocument && limits.quickRender !== "always" ? judgeServedHtml(rawHtml) : null;
  const render = isDocument && (served === null || (served.render && limits.quickRender !== "never"));
  const asServed = served?.html ?? rawHtml;
  if (render && full) onRender?.(rawHtml);
  const rendered: Rendered = render
    ? await renderDocument(
        openPage,
        final,
        rawHtml,
        policy,
        {
          settleMs: Math.min(
            limits.settleTimeoutMs[target.mode],
            Math.max(deadline - Date.now() - readReserveMs(limits.scanTimeoutMs), 1),
          ),
          deadline,
          maxBytes: limits.maxHtmlBytes,
        },
        full,
      )
    : { dom: null, subresources: [], unusable: null, agent: NO_AGENT };
  const renderReason = rendered.unusable
    ? `rendered, but ${UNUSABLE[rendered.unusable]}: judged on the served HTML`
    : !isDocument
      ? "no HTML document to render"
      : full
        ? "full scans always render"
        : served === null
          ? "quick scans always render (QUICK_RENDER=always)"
          : served.render && !render
            ? `${served.reason}, not rendered: quick scans never render (QUICK_RENDER=never)`
            : served.reason;

  const snapshot: Snapshot = {
    requestedUrl: requested.toString(),
    finalUrl: final.url,
    status: final.status,
    redirects: document.redirects,
    redirectLoop: document.redirectLoop,
    headers: final.headers,
    ttfbMs: final.ttfbMs,
    rawHtml,
    renderedHtml: rendered.dom ?? asServed,
    rendered: rendered.dom !== null,
    renderReason,
    ...(rendered.unusable ? { renderFailure: rendered.unusable } : {}),
    robotsTxt: await robotsTxt,
    llmsTxt: await llmsTxt,
    sitemap: await sitemap,
    subresources: rendered.subresources,
    botFetches: await botFetches,
  };
  return { snapshot, agent: rendered.agent };
};

/**
 * What a render gave: the settled DOM, or null and why it could not be used (the page is then
 * judged on its served HTML, as when it is not rendered).
 */
/** why a render's DOM could not be judged: the page is then judged on its served HTML */
type Rendered = {
  dom: string | null;
  subresources: Subresource[];
  unusable: RenderFailureCode | null;
  /** a full scan's agentic-browsing measurements (agent-capture.ts), settling after the DOM is read */
  agent: Promise<AgentCapture | null>;
};

/** the render failures in the scan log's words */
const UNUSABLE: Record<RenderFailureCode, string> = {
  dom_unreadable: "its DOM could not be read (the page's scripts kept it busy)",
  parse_unfinished: "the document had not finished parsing in time",
};

/**
 * The DOM as HTML, and whether the parser had finished the document. Evaluated in the page's
 * own world: page.content() first builds an isolated world, which costs a small page half
 * again its serialisation time.
 */
const serialise = (page: Page): Promise<{ html: string; parsed: boolean }> =>
  page.evaluate(() => {
    const doctype = document.doctype;
    return {
      html: `${doctype ? `<!DOCTYPE ${doctype.name}>` : ""}${document.documentElement.outerHTML}`,
      parsed: document.readyState !== "loading",
    };
  });

/**
 * A subresource of a site behind a login, fetched as every fetch of the scan is (vetted, pinned,
 * bounded, no redirect followed) with the site's credentials, then given to the page. A redirect
 * goes back to the page as it came, so the browser asks for its target as a new request, which
 * carries credentials only if it is of the site's origin again. A body over the cap or a
 * failed fetch is blocked, as a subresource the policy refuses is.
 */
const fulfilWithAccess = async (
  route: Route,
  url: URL,
  policy: FetchPolicy,
  limits: { deadline: number; maxBytes: number },
): Promise<void> => {
  try {
    const response = await fetchOnce(url, policy, limits);
    if (response.truncated) return route.abort("blockedbyclient");
    const headers = Object.fromEntries(Object.entries(response.headers).filter(([name]) => !HOP_BY_HOP.has(name)));
    return route.fulfill({ status: response.status, headers, body: response.body });
  } catch {
    return route.abort("blockedbyclient");
  }
};

/** hosts vetted ahead of the render at most: a page naming thousands does not flood the resolver */
const PREVETTED_HOSTS_MAX = 64;

/**
 * The http(s) origins of the `<script src>`, `<iframe src>` and `<frame src>` the HTML names (also
 * inside inline scripts that write them), resolved against the document's URL: the hosts its
 * render will ask for first. A hint for vetting early, not a parse: a host read wrongly costs
 * one DNS lookup, and every request is vetted as it comes either way.
 */
export const scriptHostsOf = (html: string, base: string): URL[] => {
  const hosts = new Map<string, URL>();
  for (const match of html.matchAll(/<(?:script|i?frame)\b[^>]*?\ssrc\s*=\s*["']?([^"'\s>\\]+)/gi)) {
    let url: URL;
    try {
      url = new URL((match[1] ?? "").replaceAll("&amp;", "&"), base);
    } catch {
      continue;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") continue;
    hosts.set(`${url.protocol}//${url.host}`, url);
    if (hosts.size >= PREVETTED_HOSTS_MAX) break;
  }
  return [...hosts.values()];
};

const renderDocument = async (
  openPage: () => Promise<ScanPage>,
  document: { url: string; status: number; headers: Record<string, string>; body: Buffer },
  /** the document's HTML, decoded */
  html: string,
  policy: FetchPolicy,
  { settleMs, deadline, maxBytes }: { settleMs: number; deadline: number; maxBytes: number },
  full: boolean,
): Promise<Rendered> => {
  const vetted = new Map<string, Promise<boolean>>();
  const vetHost = (url: URL): Promise<boolean> => {
    const key = `${url.protocol}//${url.host}`;
    let allowed = vetted.get(key);
    if (!allowed) {
      allowed = vetTarget(url, {
        allowlist: policy.allowlist,
        resolve: policy.resolveSubresource,
        ports: policy.ports,
      }).then(
        (verdict) => verdict.allowed,
        () => false,
      );
      vetted.set(key, allowed);
    }
    return allowed;
  };
  // the hosts of the scripts and frames the served HTML names are vetted now, all at once, while
  // the context opens: a host whose name resolves slowly then delays the render once, rather than
  // once for every batch of scripts the parser meets
  for (const host of scriptHostsOf(html, document.url)) {
    void vetHost(host);
  }
  const { context, page, release } = await openPage();
  // the context stays open while axe runs after the DOM is handed over, and closes when it ends
  let measuring: Promise<unknown> = NO_AGENT;
  try {
    const subresources: Subresource[] = [];
    let documentServed = false;
    await context.route("**/*", async (route: Route) => {
      const request = route.request();
      const url = request.url();
      if (!documentServed && request.isNavigationRequest() && url === document.url) {
        documentServed = true;
        const headers = Object.fromEntries(Object.entries(document.headers).filter(([name]) => !HOP_BY_HOP.has(name)));
        return route.fulfill({ status: document.status, headers, body: document.body });
      }
      const type = request.resourceType();
      let blocked = BLOCKED_RESOURCE_TYPES.has(type) || !/^https?:/.test(url);
      if (!blocked) blocked = !(await vetHost(new URL(url)));
      if (/^https?:/.test(url)) subresources.push({ url, resourceType: type, blocked });
      if (blocked) return route.abort("blockedbyclient");
      // a site behind a login: its own subresources are fetched here, with its credentials, and
      // handed to the page; the browser is never given them (Chromium would carry headers set on
      // a continued request across a redirect to another origin, and drops a Cookie header)
      if (policy.access && request.method() === "GET" && Object.keys(accessHeadersFor(url, policy.access)).length > 0) {
        return fulfilWithAccess(route, new URL(url), policy, { deadline, maxBytes });
      }
      return route.continue();
    });
    // a full scan measures what an agent meets during this render: the recorder listens from
    // before the first script; a quick scan does not pay for it (axe alone costs a few hundred ms)
    const recorder: AgentRecorder | null = full ? await startAgentCapture(page).catch(() => null) : null;
    const settleBy = Date.now() + settleMs;
    await page.goto(document.url, { waitUntil: "commit", timeout: Math.max(settleMs, 1) });
    // a page that never settles is judged on the DOM it has by then
    await page
      .waitForLoadState(full ? "load" : "domcontentloaded", { timeout: Math.max(settleBy - Date.now(), 1) })
      .catch(() => undefined);
    // a page whose main thread is stuck (an endless script) cannot serialise its DOM:
    // it is then judged on the HTML as served
    // the scan's deadline bounds this too, with a moment left for a page that is merely busy
    const serialiseMs = Math.min(CONTENT_TIMEOUT_MS, Math.max(deadline - Date.now(), 250));
    const dom = await withTimeout(serialise(page), serialiseMs).catch(() => null);
    if (!dom) return { dom: null, subresources, unusable: "dom_unreadable", agent: NO_AGENT };
    // a document the parser has not finished (a slow parser-blocking script, an overloaded
    // machine) lacks whatever comes after that point: judging it would report a missing title
    // or heading that the page has
    if (!dom.parsed) return { dom: null, subresources, unusable: "parse_unfinished", agent: NO_AGENT };
    // after the DOM is serialised: axe's own script and scrolling never reach what the checks read.
    // It runs in Chromium while the page checks run here: the DOM goes to them now, the agentic
    // checks wait for this. The budget is fixed now, as when the capture waited for it.
    const agent = recorder
      ? recorder.finish(Math.max(deadline - Date.now(), AGENT_AUDIT_MIN_MS)).catch(() => null)
      : NO_AGENT;
    measuring = agent;
    return { dom: dom.html, subresources, unusable: null, agent };
  } finally {
    // closing the context ends an axe run that had not finished in its time
    void measuring.then(release);
  }
};
