import { judge } from "../fixture";
import { organizationSchema } from "./organization-schema.check";

const page = (json: string) =>
  `<html><head><script type="application/ld+json">${json}</script></head><body></body></html>`;

describe("organization-schema", () => {
  it("passes with name, url and logo, also for a nested publisher of a subtype", () => {
    const verdict = judge(
      organizationSchema,
      page(
        '{"@context":"https://schema.org","@type":"Article","publisher":{"@type":"NewsMediaOrganization","name":"Daily","url":"https://daily.example","logo":{"@type":"ImageObject","url":"https://daily.example/l.png"}}}',
      ),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toBe('NewsMediaOrganization "Daily" has name, url and logo.');
  });

  it("warns when a field is missing, judging the most complete node", () => {
    const verdict = judge(
      organizationSchema,
      page(
        '[{"@context":"https://schema.org","@type":"Organization"},{"@context":"https://schema.org","@type":"ShoeStore","name":"Feet","url":"https://feet.example"}]',
      ),
    );
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toBe('ShoeStore "Feet" lacks logo.');
    expect(verdict.fix).toMatch(/Add logo/);
  });

  it("fails without an organization; a Service is none", () => {
    const verdict = judge(
      organizationSchema,
      page(
        '[{"@context":"https://schema.org","@type":"Person","name":"Ann"},{"@context":"https://schema.org","@type":"TaxiService","name":"Cab"}]',
      ),
    );
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/No Organization/);
  });
});
