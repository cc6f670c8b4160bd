import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createScanClient, dataOf, problemOf, ScanApiError } from "@scan/client";
import { CLIENT_TYPES_FILE, renderClientTypes } from "@scan/client/generate";
import { describeApi } from "@scan/gateway";
import { createAccount, tokenFor } from "./support/accounts";
import { type AccountsApi, startAccountsApi } from "./support/accounts-api";

describe("packages/client", () => {
  it("its types are what the gateway's OpenAPI document renders now (run `pnpm client:generate` after changing the API)", async () => {
    const rendered = await renderClientTypes(describeApi());
    expect(rendered).toContain('"/api/v1/scan": {');
    expect(readFileSync(join(__dirname, "..", CLIENT_TYPES_FILE), "utf8")).toBe(rendered);
  });

  describe("against the gateway", () => {
    let api: AccountsApi;
    beforeAll(async () => {
      api = await startAccountsApi();
    });
    afterAll(async () => {
      await api?.close();
    });

    it("sends the API key and reads Form A by default", async () => {
      const account = await createAccount(api.stack.db);
      const client = createScanClient({ baseUrl: api.stack.gateway.url, apiKey: account.key });
      const result = await client.POST("/api/v1/scan", {
        body: { url: api.site.url("/page"), mode: "quick" },
        headers: { Prefer: "respond-async" },
      });
      expect(result.response.status).toBe(202);
      const accepted = dataOf(result);
      expect(accepted).toMatchObject({ url: api.site.url("/page"), mode: "quick", status: "queued" });
      const stored = dataOf(await client.GET("/api/v1/scan/{id}", { params: { path: { id: accepted.id } } }));
      expect(stored.id).toBe(accepted.id);
      expect(result.data && "ok" in result.data && result.data.ok).toBe(true);
    });

    it("reads Form B when asked and a user's JWT from a function", async () => {
      const account = await createAccount(api.stack.db);
      let asked = 0;
      const client = createScanClient({
        baseUrl: api.stack.gateway.url,
        form: "B",
        token: () => {
          asked += 1;
          return tokenFor(account.user);
        },
      });
      const result = await client.GET("/api/v1/keys", { params: { query: { limit: 5 } } });
      expect(result.response.status).toBe(200);
      expect(result.data && "success" in result.data && result.data.success).toBe(true);
      expect(dataOf(result).map((key) => key.id)).toEqual([account.keyId]);
      expect(asked).toBe(1);
    });

    it("reads either form's error envelope the same way", async () => {
      for (const form of ["A", "B"] as const) {
        const client = createScanClient({ baseUrl: api.stack.gateway.url, apiKey: "aeo_live_not-a-key", form });
        const result = await client.GET("/api/v1/sites", {});
        expect(result.response.status).toBe(401);
        const problem = problemOf(result.response, result.error);
        expect(problem).toMatchObject({
          status: 401,
          code: form === "A" ? "unauthenticated" : "INVALID_API_KEY",
          message: expect.any(String),
        });
        expect(() => dataOf(result)).toThrow(ScanApiError);
      }
    });
  });
});
