import { z } from "zod";
import {
  errorBody,
  formAError,
  formASuccess,
  formBError,
  formBSuccess,
  PageMeta,
  PageMetaA,
  pageBody,
  parseResponseForm,
  RequestMeta,
  successBody,
} from "./envelope";
import { AppError, ERROR_TABLE, type ErrorKind } from "./errors";

describe("parseResponseForm", () => {
  it.each([
    ["a", "A"],
    ["A", "A"],
    [" b ", "B"],
    ["B", "B"],
    ["c", "A"],
    ["", "A"],
    [undefined, "A"],
  ])("header %p gives %s with default A", (header, form) => {
    expect(parseResponseForm(header, "A")).toBe(form);
  });
  it("falls back to the deployment default", () => {
    expect(parseResponseForm(undefined, "B")).toBe("B");
  });
});

describe("successBody", () => {
  it("renders Form A with meta", () => {
    expect(successBody("A", { x: 1 }, { requestId: "r" })).toEqual({
      ok: true,
      data: { x: 1 },
      meta: { requestId: "r" },
    });
  });
  it("adds success: true on the scan endpoint in Form A", () => {
    expect(successBody("A", {}, {}, { scanEndpoint: true })).toEqual({ ok: true, success: true, data: {}, meta: {} });
  });
  it("renders Form B without meta", () => {
    expect(successBody("B", { x: 1 }, { requestId: "r" })).toEqual({ success: true, data: { x: 1 } });
  });
  it("renders pages in both forms", () => {
    const meta = { page: 1, limit: 20, total: 1, hasMore: false };
    expect(pageBody("A", [1], meta, "r1")).toEqual({ ok: true, data: [1], meta: { ...meta, requestId: "r1" } });
    expect(pageBody("B", [1], meta, "r1")).toEqual({ success: true, data: [1], meta });
  });
});

describe("errorBody", () => {
  const expected: Record<ErrorKind, [number, string, string]> = {
    invalid_request: [400, "invalid_request", "VALIDATION_ERROR"],
    invalid_json: [400, "invalid_request", "INVALID_JSON"],
    unauthenticated: [401, "unauthenticated", "INVALID_API_KEY"],
    forbidden: [403, "forbidden", "FORBIDDEN"],
    read_only_key: [403, "forbidden", "READ_ONLY_KEY"],
    plan_limit: [403, "forbidden", "PLAN_LIMIT"],
    https_required: [403, "forbidden", "HTTPS_REQUIRED"],
    not_found: [404, "not_found", "NOT_FOUND"],
    method_not_allowed: [405, "method_not_allowed", "METHOD_NOT_ALLOWED"],
    not_acceptable: [406, "not_acceptable", "NOT_ACCEPTABLE"],
    scan_not_finished: [409, "conflict", "SCAN_NOT_FINISHED"],
    checks_pruned: [410, "gone", "CHECKS_PRUNED"],
    request_timeout: [408, "request_timeout", "REQUEST_TIMEOUT"],
    idempotency_key_in_use: [409, "idempotency_key_in_use", "IDEMPOTENCY_KEY_IN_USE"],
    conflict: [409, "conflict", "CONFLICT"],
    idempotency_key_reused: [422, "idempotency_key_reused", "IDEMPOTENCY_KEY_REUSED"],
    payload_too_large: [413, "payload_too_large", "PAYLOAD_TOO_LARGE"],
    uri_too_long: [414, "uri_too_long", "URI_TOO_LONG"],
    unsupported_media_type: [415, "unsupported_media_type", "UNSUPPORTED_MEDIA_TYPE"],
    headers_too_large: [431, "headers_too_large", "HEADERS_TOO_LARGE"],
    rate_limited: [429, "rate_limited", "RATE_LIMITED"],
    internal_error: [500, "internal_error", "INTERNAL_ERROR"],
    upstream_failure: [502, "upstream_failure", "UPSTREAM_FAILURE"],
    service_unavailable: [503, "service_unavailable", "SERVICE_UNAVAILABLE"],
  };

  it("covers every error kind", () => {
    expect(Object.keys(ERROR_TABLE).sort()).toEqual(Object.keys(expected).sort());
  });

  it.each(Object.entries(expected))("%s renders in both forms", (kind, [status, codeA, codeB]) => {
    const error = new AppError(kind as ErrorKind, "what went wrong", "what to do");
    expect(error.status).toBe(status);
    expect(errorBody("A", error)).toEqual({
      ok: false,
      error: { code: codeA, message: "what went wrong", hint: "what to do" },
    });
    expect(errorBody("B", error)).toEqual({ error: "what went wrong", code: codeB });
  });
});

describe("the envelope schemas the API reference is generated from", () => {
  const Data = z.object({ x: z.int() });
  const meta = { page: 2, limit: 20, total: 41, hasMore: true };

  it("describe what the envelope functions render", () => {
    expect(formASuccess(Data, RequestMeta).parse(successBody("A", { x: 1 }, { requestId: "r" }))).toBeTruthy();
    expect(
      formASuccess(Data, RequestMeta, { scanEndpoint: true }).parse(
        successBody("A", { x: 1 }, { requestId: "r" }, { scanEndpoint: true }),
      ),
    ).toBeTruthy();
    expect(formBSuccess(Data).parse(successBody("B", { x: 1 }, { requestId: "r" }))).toBeTruthy();
    expect(formASuccess(z.array(Data), PageMetaA).parse(pageBody("A", [{ x: 1 }], meta, "r1"))).toBeTruthy();
    expect(formBSuccess(z.array(Data), PageMeta).parse(pageBody("B", [{ x: 1 }], meta, "r1"))).toBeTruthy();
  });

  it("tell the two forms apart", () => {
    expect(formBSuccess(Data).safeParse(successBody("A", { x: 1 }, {}, { scanEndpoint: true })).success).toBe(false);
    expect(formASuccess(Data, RequestMeta).safeParse(successBody("B", { x: 1 })).success).toBe(false);
  });

  it.each(Object.keys(ERROR_TABLE) as ErrorKind[])("describe the %s error in both forms", (kind) => {
    const error = new AppError(kind, "m", "h");
    const { a, b } = ERROR_TABLE[kind];
    expect(formAError([a]).parse(errorBody("A", error))).toBeTruthy();
    expect(formBError([b]).parse(errorBody("B", error))).toBeTruthy();
    expect(formAError(["other"]).safeParse(errorBody("A", error)).success).toBe(false);
  });
});
