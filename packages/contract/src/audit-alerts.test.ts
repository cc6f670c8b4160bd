import { maskSecretUrl } from "./audit-alerts";
import { AuditScheduleRequest } from "./audit-schedule";

describe("maskSecretUrl", () => {
  it("keeps the origin and the last 4 characters of a Slack webhook's token, nothing else", () => {
    const url = "https://hooks.slack.com/services/T0123ABCD/B0456EFGH/abcdefghijklmnopqrstuvwx";
    expect(maskSecretUrl(url)).toBe("https://hooks.slack.com/…uvwx");
    expect(maskSecretUrl(url)).toBe(maskSecretUrl(url));
    expect(maskSecretUrl(url)).not.toContain("T0123ABCD");
  });

  it("shows nothing of a short path, and nothing of what does not parse", () => {
    expect(maskSecretUrl("https://hooks.example:8443/abc")).toBe("https://hooks.example:8443/…");
    expect(maskSecretUrl("not a url with a secret")).toBe("…");
  });
});

describe("AuditScheduleRequest alert channels", () => {
  it("takes addresses and a Slack URL beside alert_url, none of them required", () => {
    expect(AuditScheduleRequest.parse({ frequency: "weekly" })).toMatchObject({ alert_emails: [] });
    expect(
      AuditScheduleRequest.parse({
        frequency: "daily",
        alert_emails: ["seo@agency.example"],
        alert_slack_url: "https://hooks.slack.com/services/T/B/x",
      }),
    ).toMatchObject({
      alert_emails: ["seo@agency.example"],
      alert_slack_url: "https://hooks.slack.com/services/T/B/x",
    });
  });

  it("refuses what is not an address, and more than 10, naming the field", () => {
    const bad = AuditScheduleRequest.safeParse({ frequency: "daily", alert_emails: ["seo at agency"] });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({
      path: ["alert_emails", 0],
      message: "must be an e-mail address such as seo@agency.example",
    });
    const many = AuditScheduleRequest.safeParse({
      frequency: "daily",
      alert_emails: Array.from({ length: 11 }, (_, i) => `a${i}@agency.example`),
    });
    expect(many.error?.issues[0]).toMatchObject({ path: ["alert_emails"], message: "must hold at most 10 addresses" });
  });

  it("takes report_emails apart from the alerts' addresses, checked the same way", () => {
    expect(AuditScheduleRequest.parse({ frequency: "weekly" })).toMatchObject({ report_emails: [] });
    expect(AuditScheduleRequest.parse({ frequency: "weekly", report_emails: ["owner@client.example"] })).toMatchObject({
      report_emails: ["owner@client.example"],
      alert_emails: [],
    });
    const bad = AuditScheduleRequest.safeParse({ frequency: "weekly", report_emails: ["owner at client"] });
    expect(bad.error?.issues[0]).toMatchObject({ path: ["report_emails", 0] });
    const many = AuditScheduleRequest.safeParse({
      frequency: "weekly",
      report_emails: Array.from({ length: 11 }, (_, i) => `c${i}@client.example`),
    });
    expect(many.error?.issues[0]).toMatchObject({ path: ["report_emails"], message: "must hold at most 10 addresses" });
  });
});
