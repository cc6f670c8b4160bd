import { AppError } from "@scan/contract";
import { vetTarget } from "@scan/platform";
import { createVetDomains } from "./profile-service";

/**
 * Brand and competitor domains pass the scan address policy (vetTarget): a host whose name
 * resolves to a private or reserved address is refused; one that does not resolve is let
 * through, as a site's origin is (its pages are fetched, and fail, later).
 */
describe("createVetDomains", () => {
  const answers: Record<string, string[]> = { "intranet.example": ["10.1.2.3"], "public.example": ["93.184.215.14"] };
  // the scan intake's check, over a DNS that answers from the table above
  const assertScannable = async (url: string) => {
    const verdict = await vetTarget(new URL(url), {
      allowlist: new Set(),
      resolve: async (host) => {
        const found = answers[host];
        if (!found) throw new Error("ENOTFOUND");
        return found;
      },
    });
    if (!verdict.allowed && !verdict.reason.startsWith("unresolvable"))
      throw new AppError("invalid_request", `url is not scannable: ${verdict.reason}`);
  };
  const vet = createVetDomains(assertScannable);

  it("lets public and unresolvable hosts through", async () => {
    await expect(vet(["public.example", "nowhere.example"], "domains")).resolves.toBeUndefined();
  });

  it("refuses a host that resolves to a private address, naming the field and the host", async () => {
    await expect(vet(["public.example", "intranet.example"], "brand_domains")).rejects.toMatchObject({
      kind: "invalid_request",
      message: expect.stringMatching(/^brand_domains: intranet\.example is not allowed: .*private or reserved/),
    });
  });
});
