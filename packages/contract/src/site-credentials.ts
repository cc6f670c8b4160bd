import { z } from "zod";

/**
 * What a scan of a site behind a login sends to that site's own origin: request headers,
 * cookies and HTTP Basic credentials (PUT /api/v1/sites/:id/credentials). Sealed at rest, sent
 * only to requests whose origin is the site's, never logged, never returned once set: the API
 * shows which names are set, not their values.
 */

/** RFC 9110 §5.6.2 token: a header or cookie name. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** a field value: visible ASCII, spaces and tabs; no CR, LF or NUL (no header injection) */
const FIELD_VALUE = /^[\t\x20-\x7e]*$/;
/** RFC 6265 §4.1.1 cookie-octet */
const COOKIE_VALUE = /^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*$/;

/**
 * Headers a site's credentials may not set, with why: the connection's own headers, the
 * scanner's identity (robots.txt groups are chosen by its user agent), and the two that have a
 * field of their own here.
 */
export const REFUSED_CREDENTIAL_HEADERS: Readonly<Record<string, string>> = {
  host: "the host is the site's",
  "content-length": "the scanner sends no body",
  "transfer-encoding": "the scanner sends no body",
  connection: "it belongs to the connection",
  "keep-alive": "it belongs to the connection",
  upgrade: "it belongs to the connection",
  te: "it belongs to the connection",
  trailer: "it belongs to the connection",
  "proxy-authorization": "it belongs to a proxy",
  "proxy-connection": "it belongs to a proxy",
  "user-agent": "the scanner's user agent chooses its robots.txt group and identifies it to the site",
  cookie: "set cookies in `cookies`",
  authorization:
    "set HTTP Basic credentials in `basic`; another scheme's token goes in a header of the site's own name",
};

export const MAX_CREDENTIAL_HEADERS = 20;
export const MAX_CREDENTIAL_COOKIES = 50;
const MAX_VALUE = 4_096;

/** Checks each name of a record (zod reports a record key's own issues only as "Invalid key in record"). */
const names =
  (check: (name: string) => string | null) =>
  (record: Record<string, string>, ctx: z.RefinementCtx): void => {
    for (const name of Object.keys(record)) {
      const problem = check(name);
      if (problem) ctx.addIssue({ code: "custom", path: [name], message: problem });
    }
  };

const headerNameProblem = (name: string): string | null => {
  if (name.length === 0 || name.length > 100) return "header names are 1 to 100 characters";
  if (!TOKEN.test(name)) return "header names are RFC 9110 tokens (letters, digits and !#$%&'*+.^_`|~-)";
  const why = REFUSED_CREDENTIAL_HEADERS[name.toLowerCase()];
  return why ? `${name} cannot be set: ${why}` : null;
};

const cookieNameProblem = (name: string): string | null =>
  name.length === 0 || name.length > 200 || !TOKEN.test(name) ? "cookie names are tokens of 1 to 200 characters" : null;

export const SiteCredentialsRequest = z
  .strictObject({
    headers: z
      .record(
        z.string(),
        z
          .string({ error: "header values are strings" })
          .max(MAX_VALUE, `header values are at most ${MAX_VALUE} characters`)
          .regex(FIELD_VALUE, "header values are visible ASCII, spaces and tabs (no line breaks)"),
      )
      .superRefine(names(headerNameProblem))
      .refine((headers) => Object.keys(headers).length <= MAX_CREDENTIAL_HEADERS, {
        message: `at most ${MAX_CREDENTIAL_HEADERS} headers`,
      })
      .refine(
        (headers) =>
          new Set(Object.keys(headers).map((name) => name.toLowerCase())).size === Object.keys(headers).length,
        { message: "a header name is given twice (names are case-insensitive)" },
      )
      .optional(),
    cookies: z
      .record(
        z.string(),
        z
          .string({ error: "cookie values are strings" })
          .max(MAX_VALUE, `cookie values are at most ${MAX_VALUE} characters`)
          .regex(
            COOKIE_VALUE,
            "cookie values are RFC 6265 cookie-octets (no spaces, quotes, commas, semicolons or backslashes)",
          ),
      )
      .superRefine(names(cookieNameProblem))
      .refine((cookies) => Object.keys(cookies).length <= MAX_CREDENTIAL_COOKIES, {
        message: `at most ${MAX_CREDENTIAL_COOKIES} cookies`,
      })
      .optional(),
    basic: z
      .strictObject({
        username: z
          .string({ error: "is required" })
          .max(200)
          .regex(/^[\x20-\x39\x3b-\x7e\u00a0-\uffff]*$/, "has no colon and no control characters"),
        password: z
          .string({ error: "is required" })
          .max(200)
          .regex(/^[\x20-\x7e\u00a0-\uffff]*$/, "has no control characters"),
      })
      .optional(),
  })
  .refine(
    (body) =>
      Object.keys(body.headers ?? {}).length > 0 ||
      Object.keys(body.cookies ?? {}).length > 0 ||
      body.basic !== undefined,
    { message: "give at least one of headers, cookies or basic; DELETE the credentials to remove them" },
  );
export type SiteCredentialsRequest = z.infer<typeof SiteCredentialsRequest>;

/** What the API shows of a site's credentials: which are set, never their values. */
export const SiteCredentialsView = z.object({
  headers: z.array(z.string()).describe("names of the headers sent"),
  cookies: z.array(z.string()).describe("names of the cookies sent"),
  basic: z.boolean().describe("whether HTTP Basic credentials are sent"),
  updated_at: z.string().describe("when the credentials were last set (ISO 8601)"),
});
export type SiteCredentialsView = z.infer<typeof SiteCredentialsView>;

export const credentialsView = (credentials: SiteCredentialsRequest, updatedAt: Date): SiteCredentialsView => ({
  headers: Object.keys(credentials.headers ?? {}).sort(),
  cookies: Object.keys(credentials.cookies ?? {}).sort(),
  basic: credentials.basic !== undefined,
  updated_at: updatedAt.toISOString(),
});

/**
 * The request headers that carry a site's credentials: its own headers, one `Cookie` and one
 * `Authorization: Basic` (RFC 7617, UTF-8).
 */
export const credentialHeaders = (credentials: SiteCredentialsRequest): Record<string, string> => {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(credentials.headers ?? {})) headers[name.toLowerCase()] = value;
  const cookies = Object.entries(credentials.cookies ?? {});
  if (cookies.length > 0) headers.cookie = cookies.map(([name, value]) => `${name}=${value}`).join("; ");
  if (credentials.basic) {
    const pair = `${credentials.basic.username}:${credentials.basic.password}`;
    headers.authorization = `Basic ${Buffer.from(pair, "utf8").toString("base64")}`;
  }
  return headers;
};
