import { auth, searchconsole } from "@googleapis/searchconsole";
import { AppError, type SearchConsoleImportRequest } from "@scan/contract";
import { type QueriesReading, type QueryEntry, readQueryEntries } from "./search-console-import";

/** Asks Search Console for a property's queries of a period: the reading an import stores. */
export type SearchConsoleReader = (request: SearchConsoleImportRequest) => Promise<QueriesReading>;

const TOKEN_HINT =
  "Send a current OAuth 2.0 access token of a Google account that is a user of the property, with the https://www.googleapis.com/auth/webmasters.readonly scope.";

/** Google's error answer: `{error: {code, message, status}}`. */
const googleError = (error: unknown): { status: number | null; said: string } => {
  const response = (error as { response?: { status?: unknown; data?: unknown } } | null)?.response;
  const status = typeof response?.status === "number" ? response.status : null;
  const body = response?.data as { error?: { message?: unknown; status?: unknown } } | undefined;
  const message = typeof body?.error?.message === "string" ? body.error.message : "";
  const code = typeof body?.error?.status === "string" ? body.error.status : "";
  return { status, said: [code, message].filter(Boolean).join(": ").slice(0, 300) };
};

/** A number of the answer as the reader checks it; anything else as text that fails the check. */
const numberText = (value: unknown): string =>
  typeof value === "number" && Number.isFinite(value)
    ? String(value)
    : value === undefined
      ? ""
      : String(value).slice(0, 20);

/**
 * Search Console's searchanalytics.query through Google's own client library
 * (`@googleapis/searchconsole`) at `rootUrl`, grouped by query, the most clicked first, one page
 * of at most 1,000 rows. The caller's access token goes in the Authorization header of this one
 * request and nowhere else: not stored, not logged, and cut out of any message Google returns.
 */
export const createSearchConsoleReader =
  ({ rootUrl, timeoutMs }: { rootUrl: string; timeoutMs: number }): SearchConsoleReader =>
  async (request) => {
    const credentials = new auth.OAuth2();
    credentials.setCredentials({ access_token: request.access_token });
    // Node's own fetch: gaxios would otherwise import node-fetch at the first request
    const client = searchconsole({
      version: "v1",
      rootUrl,
      auth: credentials,
      timeout: timeoutMs,
      retry: false,
      fetchImplementation: fetch,
    });
    const hide = (text: string) => text.split(request.access_token).join("[access token]");
    let rows: unknown;
    // the whole answer within the time limit, its body included: the request is aborted then
    // (gaxios's own `timeout` is kept too)
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new Error("Search Console did not answer in time"));
      }, timeoutMs);
    });
    try {
      const asked = client.searchanalytics.query(
        {
          siteUrl: request.property,
          requestBody: {
            startDate: request.start_date,
            endDate: request.end_date,
            dimensions: ["query"],
            type: request.search_type,
            rowLimit: request.row_limit,
            startRow: 0,
          },
        },
        { signal: controller.signal },
      );
      // a request aborted after the limit rejects too: nobody waits for it
      asked.catch(() => {});
      const response = await Promise.race([asked, late]);
      rows = response.data.rows ?? [];
      clearTimeout(timer);
    } catch (error) {
      clearTimeout(timer);
      const { status, said } = googleError(error);
      const what = hide(said);
      if (status === 401)
        throw new AppError(
          "invalid_request",
          `Search Console refused the access token (401${what ? ` ${what}` : ""})`,
          TOKEN_HINT,
        );
      if (status === 403)
        throw new AppError(
          "invalid_request",
          `Search Console refused access to the property ${request.property} (403${what ? ` ${what}` : ""})`,
          TOKEN_HINT,
        );
      if (status === 400 || status === 404)
        throw new AppError(
          "invalid_request",
          `Search Console refused the query (${status}${what ? ` ${what}` : ""})`,
          "Check property (sc-domain:<domain>, or the URL prefix as Search Console lists it, with its trailing slash), the dates and search_type.",
        );
      throw new AppError(
        "upstream_failure",
        status === null
          ? "Search Console did not answer in time or could not be reached"
          : `Search Console failed (${status}${what ? ` ${what}` : ""})`,
        "Try again later.",
      );
    }
    if (!Array.isArray(rows))
      throw new AppError("upstream_failure", "Search Console answered without a list of rows", "Try again later.");
    const entries: QueryEntry[] = rows.map((row, index) => {
      const data = (row ?? {}) as { keys?: unknown; clicks?: unknown; impressions?: unknown; position?: unknown };
      const query = Array.isArray(data.keys) && typeof data.keys[0] === "string" ? data.keys[0].trim() : "";
      return {
        row: index + 1,
        query,
        clicks: numberText(data.clicks),
        impressions: numberText(data.impressions),
        position: numberText(data.position),
      };
    });
    const reading = readQueryEntries(entries, entries.length);
    if (!reading.ok)
      throw new AppError(
        "upstream_failure",
        `Search Console answered rows that are not queries: ${reading.rowProblems
          .slice(0, 3)
          .map(({ row, problem }) => `row ${row}: ${problem}`)
          .join("; ")}`,
        "Try again later.",
      );
    return reading;
  };
