/**
 * The one list of what a log line must never carry in a URL, and the functions every logger
 * and every logged URL go through. A query parameter (or a `name=value` pair in a fragment or
 * in any logged text) is a secret when its name is in the list or ends like one; its value is
 * replaced by `[REDACTED]`, and so is a URL's user:password. The names cover the service's own
 * (`key` of the tool server, `access` of an anonymous scan) and what other sites put in their
 * URLs, since a scanned page's or a callback's URL is logged with the same rules: OAuth's
 * tokens and codes, signed-URL signatures (S3, GCS), session ids, CSRF tokens, passwords.
 */
export const SECRET_PARAMS: readonly string[] = [
  "key",
  "apikey",
  "api_key",
  "api-key",
  "x-api-key",
  "access",
  "access_token",
  "refresh_token",
  "id_token",
  "token",
  "auth",
  "auth_token",
  "authorization",
  "code",
  "client_secret",
  "secret",
  "password",
  "passwd",
  "pwd",
  "pass",
  "signature",
  "sig",
  "x-amz-signature",
  "x-amz-credential",
  "x-amz-security-token",
  "x-goog-signature",
  "x-goog-credential",
  "session",
  "sessionid",
  "session_id",
  "sid",
  "jwt",
  "csrf",
  "_csrf",
  "csrf_token",
  "xsrf_token",
  "otp",
  "invitation",
  "reset_token",
];

const NAMED = new Set(SECRET_PARAMS);

/** Names that end like a credential: `oauth_token`, `upload-signature`, `client_api_key`, `userPassword`. */
const SECRET_ENDING = /(token|secret|passw(or)?d|signature|credential|[_-]key|apikey)$/;

export const isSecretParam = (name: string): boolean => {
  const lower = name.toLowerCase();
  return NAMED.has(lower) || SECRET_ENDING.test(lower);
};

export const CENSOR = "[REDACTED]";

const USERINFO = /([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]*@/gi;
const PAIR = /([A-Za-z0-9_.-]+)=([^&\s"'#<>;,]*)/g;

/**
 * Text fit for a log line: every `name=value` whose name is a secret has its value replaced,
 * and every URL's user:password. Works on a whole URL, a path with its query, an error message
 * or a stack that quotes one.
 */
export const redactText = (text: string): string => {
  if (!text.includes("=") && !text.includes("@")) return text;
  return text.replace(USERINFO, `$1${CENSOR}@`).replace(PAIR, (whole, name: string, value: string) => {
    if (value === "" || value === CENSOR) return whole;
    if (isSecretParam(name)) return `${name}=${CENSOR}`;
    // a value can be a URL with a query of its own (`?next=https://x/?token=…`), encoded or not
    const inner = redactText(value);
    if (inner !== value) return `${name}=${inner}`;
    if (!value.includes("%")) return whole;
    let decoded: string;
    try {
      decoded = decodeURIComponent(value);
    } catch {
      return whole;
    }
    const redacted = redactText(decoded);
    return redacted === decoded ? whole : `${name}=${redacted}`;
  });
};

/**
 * A URL or request path fit for a log line: the values of credential-bearing query (and
 * fragment) parameters and any user:password are replaced. Keeps a relative path relative.
 */
export const redactUrl = (input: string): string => {
  // percent-encoded names (`%74oken=`) are read as their decoded selves
  const decodedNames = input.replace(/([?&#;])([^=&#]*%[0-9a-f]{2}[^=&#]*)=/gi, (whole, sep: string, name: string) => {
    try {
      return `${sep}${decodeURIComponent(name)}=`;
    } catch {
      return whole;
    }
  });
  return redactText(decodedNames);
};

const MAX_DEPTH = 8;

const isErrorLike = (value: object): value is Error =>
  value instanceof Error ||
  (typeof (value as Error).message === "string" && typeof (value as Error).stack === "string");

/**
 * A copy of a value about to be logged with every string in it redacted as `redactText` does;
 * an Error becomes what pino's serializer makes of one (type, message, stack, own fields), so
 * the URL a failed request quotes in its message is redacted too.
 */
export const redactValue = (value: unknown, seen: WeakSet<object> = new WeakSet(), depth = 0): unknown => {
  if (typeof value === "string") return redactText(value);
  if (typeof value !== "object" || value === null) return value;
  if (seen.has(value) || depth > MAX_DEPTH) return value;
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, seen, depth + 1));
  if (isErrorLike(value)) {
    // same prototype, so the serializer names its type as before
    const copy = Object.create(Object.getPrototypeOf(value)) as Record<string, unknown>;
    for (const [name, field] of Object.entries(value)) copy[name] = redactValue(field, seen, depth + 1);
    copy.message = redactText(value.message);
    copy.stack = redactText(value.stack ?? "");
    if (value.cause !== undefined) copy.cause = redactValue(value.cause, seen, depth + 1);
    return copy;
  }
  const prototype = Object.getPrototypeOf(value);
  // class instances (a Buffer, a Date, a URL) keep their own serialisation; only a URL can hold a secret
  if (value instanceof URL) return redactUrl(value.href);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const copy: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) copy[name] = redactValue(field, seen, depth + 1);
  return copy;
};
