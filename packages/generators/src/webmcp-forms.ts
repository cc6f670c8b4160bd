import { foldWhitespace, formLabel, parseDocument } from "@scan/checks";
import type { Snapshot } from "@scan/contract";

/** One form's WebMCP annotations, each drawn from the form's own markup, or null where it holds nothing to draw from. */
export type WebMcpFormSuggestion = {
  /** the form as a reader finds it in the source: `<form id="…">` */
  form: string;
  toolname: string | null;
  tooldescription: string | null;
  /** the named fields, each with the description its label gives (toolparamdescription) */
  fields: Array<{ name: string; toolparamdescription: string | null }>;
  /** the form with its annotations, to paste in place of the page's */
  html: string;
  /** what the form does not state, for its owner to add */
  missing: string[];
};

export type WebMcpFormsFix = {
  addresses: string[];
  forms: WebMcpFormSuggestion[];
  placement: string;
  notes: string[];
  /** what re-running webmcp-form-coverage on the patched copy can and cannot show with this scan's browser */
  recheck: string;
  needs?: Record<string, string>;
};

const NOT_PARAMETERS = new Set(["hidden", "submit", "button", "reset", "image"]);
const MAX_TEXT = 200;

const text = (element: Element | null | undefined): string | null => {
  const value = foldWhitespace(element?.textContent ?? "").slice(0, MAX_TEXT);
  return value === "" ? null : value;
};

const attribute = (element: Element, name: string): string | null => {
  const value = foldWhitespace(element.getAttribute(name) ?? "");
  return value === "" ? null : value;
};

const labelledBy = (element: Element): string | null => {
  const ids = (element.getAttribute("aria-labelledby") ?? "").split(/\s+/).filter(Boolean);
  const doc = element.ownerDocument;
  const parts = ids.map((id) => text(doc.getElementById(id))).filter((part): part is string => part !== null);
  return parts.length > 0 ? parts.join(" ") : null;
};

/** A field's label as a reader sees it: aria-label, aria-labelledby, `<label for>`, a wrapping label, title, placeholder. */
const fieldLabel = (field: Element): string | null => {
  const id = field.getAttribute("id");
  const forLabel = id
    ? [...field.ownerDocument.querySelectorAll("label[for]")].find((label) => label.getAttribute("for") === id)
    : undefined;
  const wrapping = field.closest("label");
  let wrapped: string | null = null;
  if (wrapping) {
    // the label's own words, without the text of the controls inside it (a select's options)
    const copy = wrapping.cloneNode(true) as Element;
    for (const control of copy.querySelectorAll("input, select, textarea")) control.remove();
    wrapped = text(copy);
  }
  return (
    attribute(field, "aria-label") ??
    labelledBy(field) ??
    text(forLabel) ??
    wrapped ??
    attribute(field, "title") ??
    attribute(field, "placeholder")
  );
};

const submitText = (form: Element): string | null => {
  for (const control of form.querySelectorAll("button, input[type=submit], input[type=image]")) {
    const type = (control.getAttribute("type") ?? (control.localName === "button" ? "submit" : "")).toLowerCase();
    if (type !== "submit" && type !== "image") continue;
    const words =
      control.localName === "button"
        ? (text(control) ?? attribute(control, "aria-label"))
        : (attribute(control, "value") ?? attribute(control, "alt"));
    if (words) return words;
  }
  return null;
};

/** A tool name as identifiers are written: lower case, words joined by underscores. */
const identifier = (words: string | null): string | null => {
  const name = (words ?? "")
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 64);
  return name === "" ? null : name;
};

const lastSegment = (action: string | null): string | null => {
  if (!action) return null;
  try {
    return new URL(action, "http://form.invalid/").pathname.split("/").filter(Boolean).at(-1) ?? null;
  } catch {
    return null;
  }
};

/** Annotates the bare forms of a document in place; the suggestions, in document order. */
const annotate = (doc: Document): WebMcpFormSuggestion[] =>
  [...doc.querySelectorAll("form")]
    .filter((form) => !form.getAttribute("toolname") && !form.getAttribute("tooldescription"))
    .map((form) => {
      const label = formLabel(form);
      const title = attribute(form, "aria-label") ?? labelledBy(form) ?? text(form.querySelector("legend"));
      const submit = submitText(form);
      const missing: string[] = [];
      const fields: WebMcpFormSuggestion["fields"] = [];
      for (const field of form.querySelectorAll("input, select, textarea")) {
        if (NOT_PARAMETERS.has((field.getAttribute("type") ?? "").toLowerCase())) continue;
        const name = attribute(field, "name");
        const described = fieldLabel(field);
        if (!name) {
          if (field.hasAttribute("required"))
            missing.push(`a name for the required field ${described ? `"${described}"` : `<${field.localName}>`}`);
          continue;
        }
        if (!field.getAttribute("toolparamdescription") && described)
          field.setAttribute("toolparamdescription", described);
        if (!described) missing.push(`a description of the field "${name}" (it has no label)`);
        fields.push({ name, toolparamdescription: described });
      }
      const toolname = identifier(
        attribute(form, "id") ?? attribute(form, "name") ?? title ?? submit ?? lastSegment(form.getAttribute("action")),
      );
      const labels = fields.map((field) => field.toolparamdescription ?? field.name);
      const parts = [
        title ? `${title}.` : null,
        labels.length > 0 ? `Fields: ${labels.join(", ")}.` : null,
        submit ? `Submit: "${submit}".` : null,
      ].filter((part): part is string => part !== null);
      const tooldescription = title || submit ? parts.join(" ") : null;
      if (toolname) form.setAttribute("toolname", toolname);
      else missing.push("a toolname (the form has no id, name, legend, label, submit text or action to draw one from)");
      if (tooldescription) form.setAttribute("tooldescription", tooldescription);
      else missing.push("a tooldescription (the form has no legend, label or submit text to draw one from)");
      return { form: label, toolname, tooldescription, fields, html: form.outerHTML, missing };
    });

const serialise = (doc: Document): string => String(doc);

/** The page with its bare forms annotated as annotate() suggests. */
export const withWebMcpAnnotations = (html: string): string => {
  const doc = parseDocument(html);
  return annotate(doc).length > 0 ? serialise(doc) : html;
};

const recheckOf = (snapshot: Snapshot): { text: string; judged: boolean } => {
  const webmcp = snapshot.agent?.webmcp;
  if (!snapshot.agent)
    return {
      text: "This scan did not measure the render, so webmcp-form-coverage skips on the page and on the patched copy alike: the re-check cannot show the forms pass.",
      judged: false,
    };
  if (!webmcp?.supported)
    return {
      text: "This scan's Chromium exposes no WebMCP (navigator.modelContext), so webmcp-form-coverage skips on the page and on the patched copy alike: the re-check cannot show the forms pass, nor can Chromium's own findings on annotated forms (webmcp-schema-validity) be read. Scan again in a Chromium with WebMCP once the annotations are published.",
      judged: false,
    };
  return {
    text: "webmcp-form-coverage ran again on the patched copy's forms. Chromium's own findings on annotated forms (webmcp-schema-validity) need a new render and were not re-checked.",
    judged: true,
  };
};

/**
 * WebMCP annotations (the declarative proposal's `toolname`, `tooldescription` and per-field
 * `toolparamdescription`) for the page's forms that carry neither `toolname` nor
 * `tooldescription`, the forms webmcp-form-coverage counts as bare. Every value comes from the
 * form's own markup: the tool name from its id or name (else its label, legend, submit text or
 * action), the description from its label or legend, its fields' labels and its submit text,
 * each field's description from its label. Where the form holds nothing to draw one from, it
 * is left out and listed in `missing`. Null when no form is bare.
 */
export const generateWebMcpForms = (snapshot: Snapshot): WebMcpFormsFix | null => {
  const forms = annotate(parseDocument(snapshot.renderedHtml));
  if (forms.length === 0) return null;
  const recheck = recheckOf(snapshot);
  const unnamed = forms.filter((form) => !form.toolname && !form.tooldescription);
  const needs: Record<string, string> = {};
  if (!recheck.judged) needs["webmcp-form-coverage"] = recheck.text;
  else if (unnamed.length > 0)
    needs["webmcp-form-coverage"] = `a toolname and tooldescription for ${unnamed.map((form) => form.form).join(", ")}`;
  return {
    addresses: ["webmcp-form-coverage"],
    forms,
    placement:
      "Replace each form in the page's HTML with its annotated copy (or add the same attributes to the template that renders it).",
    notes: forms
      .filter((form) => form.missing.length > 0)
      .map((form) => `${form.form} does not state ${form.missing.join(", ")}.`),
    recheck: recheck.text,
    ...(Object.keys(needs).length > 0 ? { needs } : {}),
  };
};
