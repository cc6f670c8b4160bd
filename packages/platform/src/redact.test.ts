import { isSecretParam, redactText, redactUrl, redactValue, SECRET_PARAMS } from "./redact";

describe("isSecretParam", () => {
  it("names every listed parameter and the names that end like a credential, in any case", () => {
    for (const name of SECRET_PARAMS) expect(isSecretParam(name.toUpperCase())).toBe(true);
    for (const name of ["oauth_token", "upload-signature", "client_api_key", "userPassword", "X-Goog-Credential"])
      expect(isSecretParam(name)).toBe(true);
  });

  it("leaves ordinary parameters alone", () => {
    for (const name of ["url", "page", "limit", "monkey", "q", "sort", "mode", "state", "utm_source"])
      expect(isSecretParam(name)).toBe(false);
  });
});

describe("redactUrl", () => {
  it("censors an anonymous scan's access link and the tool server's key", () => {
    expect(redactUrl("/api/v1/scan/5b1f?access=AbC_123")).toBe("/api/v1/scan/5b1f?access=[REDACTED]");
    expect(redactUrl("/mcp/sse?key=sk_live_abc&x=1")).toBe("/mcp/sse?key=[REDACTED]&x=1");
    expect(redactUrl("/mcp/sse?sessionId=8f0c")).toBe("/mcp/sse?sessionId=[REDACTED]");
  });

  it("censors another site's tokens, signatures and codes, in the query and the fragment", () => {
    expect(redactUrl("https://cdn.example/a.png?X-Amz-Signature=f00&X-Amz-Credential=AK%2F1&w=2")).toBe(
      "https://cdn.example/a.png?X-Amz-Signature=[REDACTED]&X-Amz-Credential=[REDACTED]&w=2",
    );
    expect(redactUrl("https://app.example/cb?code=4/0Ab&state=xyz")).toBe(
      "https://app.example/cb?code=[REDACTED]&state=xyz",
    );
    expect(redactUrl("https://app.example/#access_token=ya29.a0&expires_in=3599")).toBe(
      "https://app.example/#access_token=[REDACTED]&expires_in=3599",
    );
    expect(redactUrl("https://user:pw@hooks.example.com/in")).toBe("https://[REDACTED]@hooks.example.com/in");
  });

  it("censors a URL inside a parameter, encoded or not, and a name spelled with escapes", () => {
    expect(redactUrl("/go?next=https://x.example/?token=t0k&b=2")).toBe(
      "/go?next=https://x.example/?token=[REDACTED]&b=2",
    );
    expect(redactUrl("/go?next=https%3A%2F%2Fx.example%2F%3Fsig%3Dabc")).toBe(
      "/go?next=https://x.example/?sig=[REDACTED]",
    );
    expect(redactUrl("/x?%74oken=abc")).toBe("/x?token=[REDACTED]");
  });

  it("keeps a URL without secrets as it is", () => {
    expect(redactUrl("/api/v1/scan/5b1f")).toBe("/api/v1/scan/5b1f");
    expect(redactUrl("/api/v1/sites?page=2&limit=10")).toBe("/api/v1/sites?page=2&limit=10");
    expect(redactUrl("https://example.com/a?b=c")).toBe("https://example.com/a?b=c");
  });
});

describe("redactValue", () => {
  it("censors the URLs in every string of a line, an error's message and stack included", () => {
    const error = new TypeError("fetch failed: https://h.example/p?token=SECRET1");
    const out = redactValue({ err: error, nested: { urls: ["/a?access=SECRET2"] }, n: 1 }) as {
      err: Error;
      nested: { urls: string[] };
      n: number;
    };
    expect(out.err).toBeInstanceOf(TypeError);
    expect(out.err.message).toBe("fetch failed: https://h.example/p?token=[REDACTED]");
    expect(out.err.stack).not.toContain("SECRET1");
    expect(out.nested.urls).toEqual(["/a?access=[REDACTED]"]);
    expect(out.n).toBe(1);
    expect(error.message).toContain("SECRET1");
  });

  it("survives a cycle", () => {
    const looped: Record<string, unknown> = { url: "/a?key=SECRET" };
    looped.self = looped;
    expect(JSON.stringify((redactValue(looped) as { url: string }).url)).toBe('"/a?key=[REDACTED]"');
  });

  it("leaves text without a pair alone", () => {
    expect(redactText("scan completed")).toBe("scan completed");
    expect(redactText("user@example.com signed in")).toBe("user@example.com signed in");
  });
});
