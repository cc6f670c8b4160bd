/**
 * Sends one sample regression alert through the real outside services, as the worker would:
 * a mail through SMTP_URL to ALERT_SMOKE_TO, and a Slack message to ALERT_SMOKE_SLACK_URL
 * (either or both). `pnpm alerts:smoke`; see docs/audits.md (Regression alerts). Secrets are
 * read from the environment and never printed.
 */
import { alertMessage } from "@scan/audit";
import { maskSecretUrl, type RegressionAlert } from "@scan/contract";
import { parseConfig, redactUrl } from "@scan/platform";
import { createTransport } from "nodemailer";
import { z } from "zod";
import { Config as WorkerConfig } from "./config";

const SmokeConfig = WorkerConfig.pick({ SMTP_URL: true, ALERT_FROM: true, DASHBOARD_URL: true }).extend({
  ALERT_SMOKE_TO: z.email().optional().describe("the address the sample mail goes to"),
  ALERT_SMOKE_SLACK_URL: z.url().optional().describe("the Slack incoming-webhook URL the sample message goes to"),
});

const sample: RegressionAlert = {
  event: "site.regressed",
  alert_id: "00000000-0000-4000-8000-000000000001",
  site_id: "00000000-0000-4000-8000-000000000002",
  site_url: "https://www.example.com",
  audit_id: "00000000-0000-4000-8000-000000000003",
  previous_audit_id: "00000000-0000-4000-8000-000000000004",
  mode: "full",
  scores: {
    before: { seo: 88, aeo: 74, geo: 70, overall: 80, total: 80 },
    after: { seo: 79, aeo: 74, geo: 68, overall: 74, total: 74 },
  },
  grade: { before: "B+", after: "B" },
  reasons: [
    { kind: "score_drop", points: 6, before: 80, after: 74 },
    { kind: "grade_lower", before: "B+", after: "B" },
    {
      kind: "check_failing",
      scope: "page",
      check: "meta-description",
      title: "Page has a meta description",
      pages: ["https://www.example.com/pricing", "https://www.example.com/blog/launch"],
    },
  ],
  detected_at: new Date().toISOString(),
};

const main = async () => {
  const config = parseConfig(SmokeConfig, process.env, "alerts:smoke");
  if (!config.ALERT_SMOKE_TO && !config.ALERT_SMOKE_SLACK_URL)
    throw new Error("set ALERT_SMOKE_TO (with SMTP_URL) and/or ALERT_SMOKE_SLACK_URL");
  const message = alertMessage(sample, config.DASHBOARD_URL);
  if (config.ALERT_SMOKE_TO) {
    if (!config.SMTP_URL) throw new Error("ALERT_SMOKE_TO needs SMTP_URL");
    const transport = createTransport(config.SMTP_URL);
    try {
      await transport.sendMail({
        from: config.ALERT_FROM,
        to: config.ALERT_SMOKE_TO,
        subject: message.subject,
        text: message.text,
      });
      console.log(`mail sent through ${redactUrl(config.SMTP_URL)} to ${config.ALERT_SMOKE_TO}`);
    } finally {
      transport.close();
    }
  }
  if (config.ALERT_SMOKE_SLACK_URL) {
    const response = await fetch(config.ALERT_SMOKE_SLACK_URL, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(message.slack),
      signal: AbortSignal.timeout(10_000),
    });
    const answer = (await response.text()).slice(0, 200);
    console.log(`Slack ${maskSecretUrl(config.ALERT_SMOKE_SLACK_URL)} answered ${response.status} ${answer}`);
    if (!response.ok) process.exitCode = 1;
  }
};

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
