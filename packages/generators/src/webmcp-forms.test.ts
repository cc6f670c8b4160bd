import { allChecks, preparePage } from "@scan/checks";
import { FIXED_SCAN_TIME, snapshotOf } from "@scan/checks/testing";
import type { AgentCapture } from "@scan/contract";
import { generateWebMcpForms, withWebMcpAnnotations } from "./webmcp-forms";

const page = (body: string) => `<!doctype html><html><head><title>Contact</title></head><body>${body}</body></html>`;

const SUBSCRIBE = `<form id="newsletter" action="/subscribe">
<fieldset><legend>Newsletter sign-up</legend>
<label for="email">Your email</label> <input id="email" name="email" type="email" required>
<label>Topic <select name="topic"><option>Shoes</option><option>Jackets</option></select></label>
<input type="hidden" name="token" value="x">
<button>Subscribe</button></fieldset></form>`;

const with_ = (webmcp: AgentCapture["webmcp"]): { agent: AgentCapture } => ({
  agent: { axe: null, webmcp, layoutShift: null },
});
const SUPPORTED = with_({ supported: true, tools: [], formIssues: [] });
const UNSUPPORTED = with_({ supported: false, tools: [], formIssues: [] });

describe("generateWebMcpForms", () => {
  it("draws the tool's name, description and field descriptions from the form's own id, legend, labels and submit text", () => {
    const fix = generateWebMcpForms(snapshotOf(page(SUBSCRIBE), SUPPORTED));
    expect(fix?.forms).toEqual([
      {
        form: '<form id="newsletter">',
        toolname: "newsletter",
        tooldescription: 'Newsletter sign-up. Fields: Your email, Topic. Submit: "Subscribe".',
        fields: [
          { name: "email", toolparamdescription: "Your email" },
          { name: "topic", toolparamdescription: "Topic" },
        ],
        html: expect.stringContaining('toolname="newsletter"'),
        missing: [],
      },
    ]);
    expect(fix?.forms[0]?.html).toContain('toolparamdescription="Your email"');
    expect(fix?.needs).toBeUndefined();
  });

  it("invents nothing: a form with no label, legend, id or submit text is left for its owner", () => {
    const fix = generateWebMcpForms(snapshotOf(page('<form><input name="q"><input required></form>'), SUPPORTED));
    expect(fix?.forms[0]).toMatchObject({
      toolname: null,
      tooldescription: null,
      fields: [{ name: "q", toolparamdescription: null }],
    });
    expect(fix?.forms[0]?.missing).toEqual([
      'a description of the field "q" (it has no label)',
      "a name for the required field <input>",
      "a toolname (the form has no id, name, legend, label, submit text or action to draw one from)",
      "a tooldescription (the form has no legend, label or submit text to draw one from)",
    ]);
    expect(fix?.needs?.["webmcp-form-coverage"]).toMatch(/toolname and tooldescription for <form action="">/);
  });

  it("leaves annotated forms alone and answers nothing when no form is bare", () => {
    const html = page('<form toolname="search" tooldescription="Search the shop"><input name="q"></form>');
    expect(generateWebMcpForms(snapshotOf(html, SUPPORTED))).toBeNull();
    expect(withWebMcpAnnotations(html)).toBe(html);
  });

  it("says the re-check cannot judge the forms where this Chromium has no WebMCP", () => {
    const fix = generateWebMcpForms(snapshotOf(page(SUBSCRIBE), UNSUPPORTED));
    expect(fix?.recheck).toMatch(/exposes no WebMCP/);
    expect(fix?.needs?.["webmcp-form-coverage"]).toBe(fix?.recheck);
  });

  it("turns webmcp-form-coverage from warn to pass on the patched page where WebMCP could be read", () => {
    const coverage = allChecks.find((check) => check.id === "webmcp-form-coverage");
    const verdict = (html: string) => coverage?.run(preparePage(snapshotOf(html, SUPPORTED), FIXED_SCAN_TIME)).status;
    expect(verdict(page(SUBSCRIBE))).toBe("warn");
    expect(verdict(withWebMcpAnnotations(page(SUBSCRIBE)))).toBe("pass");
  });
});
