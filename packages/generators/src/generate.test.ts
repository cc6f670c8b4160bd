import { faqSchema, preparePage } from "@scan/checks";
import { FIXED_SCAN_TIME } from "@scan/checks/testing";
import { ARTICLE_PAGE, ORIGIN, PRODUCT_PAGE, pageAt } from "./fixture-pages";
import { GenerateOptions, generateExtractive } from "./generate";

const product = pageAt("/shoes/trail-runner-3", PRODUCT_PAGE);
const article = pageAt("/news/mains", ARTICLE_PAGE);

describe("generateExtractive", () => {
  it("draws an FAQ from question headings and their answers, with FAQPage JSON-LD that passes faq-schema", () => {
    const out = generateExtractive(product, { contentType: "faq" });
    expect(out).toMatchObject({
      contentType: "faq",
      method: "extractive",
      llm: null,
      topic: null,
      url: `${ORIGIN}/shoes/trail-runner-3`,
    });
    if (out.contentType !== "faq") throw new Error("not an FAQ");
    expect(out.items.map((item) => item.question)).toEqual([
      "How does the sizing run?",
      "Can I wash the shoes in a machine?",
    ]);
    expect(out.markdown).toBe(`# Trail Runner 3: questions and answers

## How does the sizing run?

The Trail Runner 3 runs true to size for most runners, so order the size you wear in other running shoes.

## Can I wash the shoes in a machine?

Yes, wash them cold on a gentle cycle with the insoles taken out, then let them dry in the air.
`);
    const html = `<html><head><script type="application/ld+json">${JSON.stringify(out.jsonLd)}</script></head><body></body></html>`;
    expect(faqSchema.run(preparePage(pageAt("/faq", html), FIXED_SCAN_TIME)).status).toBe("pass");
  });

  it("keeps the FAQ pairs that match the topic, and says when none does", () => {
    const washing = generateExtractive(product, { contentType: "faq", topic: "washing" });
    if (washing.contentType !== "faq") throw new Error("not an FAQ");
    expect(washing.items.map((item) => item.question)).toEqual(["Can I wash the shoes in a machine?"]);
    const none = generateExtractive(product, { contentType: "faq", topic: "warranty" });
    if (none.contentType !== "faq") throw new Error("not an FAQ");
    expect(none.items).toEqual([]);
    expect(none.jsonLd).toBeNull();
    expect(none.notes).toEqual(['None of the page\'s 2 questions matches the topic "warranty".']);
  });

  it("reads questions from <details> and from the page's own FAQPage data, once each", () => {
    const html = `<html><head><script type="application/ld+json">{"@context":"https://schema.org","@type":"FAQPage",
"mainEntity":[{"@type":"Question","name":"Do you ship abroad?","acceptedAnswer":{"@type":"Answer","text":"<p>Yes, we ship to <b>every</b> country in the EU.</p>"}},
{"@type":"Question","name":"Can I return shoes?","acceptedAnswer":{"@type":"Answer","text":"Within 30 days, unworn, with the receipt and the box."}}]}</script></head>
<body><main><details><summary>Do you ship abroad?</summary><p>Yes, we ship to every country of the European Union.</p></details>
<details><summary>Shipping costs</summary><p>Shipping is free for orders over 50 euros in the whole of Europe.</p></details></main></body></html>`;
    const out = generateExtractive(pageAt("/faq", html), { contentType: "faq" });
    if (out.contentType !== "faq") throw new Error("not an FAQ");
    expect(out.items).toEqual([
      {
        question: "Do you ship abroad?",
        answer: "Yes, we ship to every country of the European Union.",
        source: "details",
      },
      {
        question: "Can I return shoes?",
        answer: "Within 30 days, unworn, with the receipt and the box.",
        source: "json-ld",
      },
    ]);
  });

  it("outlines a blog post from headings and key sentences", () => {
    const out = generateExtractive(article, { contentType: "blog" });
    if (out.contentType !== "blog") throw new Error("not a blog outline");
    expect(out.title).toBe("Why winter breaks water mains");
    expect(out.intro).toBe("Freeze-thaw cycles crack old pipes; here is how the city keeps up.");
    expect(out.outline).toEqual([
      {
        heading: "Why winter breaks water mains",
        level: 2,
        points: ["Every winter the city sees hundreds of water main breaks, most of them in pipes laid before 1930."],
      },
      {
        heading: "The cold is not the problem",
        level: 2,
        points: [
          "Pipes crack when the ground freezes and thaws again.",
          "In January there were 120 breaks, twice the summer rate.",
        ],
      },
      {
        heading: "Replacing old pipes",
        level: 2,
        points: ["The city replaces about 100 miles of pipe each year."],
      },
    ]);
    expect(out.markdown.startsWith("# Why winter breaks water mains\n\nFreeze-thaw cycles")).toBe(true);
  });

  it("keeps the outline's sections that match the topic", () => {
    const out = generateExtractive(article, { contentType: "blog", topic: "replacement" });
    if (out.contentType !== "blog") throw new Error("not a blog outline");
    expect(out.outline.map((section) => section.heading)).toEqual(["Replacing old pipes"]);
  });

  it("describes a product from its Product data, headings and lists", () => {
    const out = generateExtractive(product, { contentType: "product" });
    if (out.contentType !== "product") throw new Error("not a product");
    expect(out).toMatchObject({
      name: "Trail Runner 3",
      description: "A light trail shoe with a grippy sole.",
      features: ["Grippy 5 mm lugs", "Rock plate under the forefoot", "Weighs 280 g in size 42"],
      details: [
        { label: "Brand", value: "Northwind" },
        { label: "SKU", value: "TR3-42" },
        { label: "Price", value: "129.5 EUR" },
        { label: "Availability", value: "InStock" },
        { label: "Rating", value: "4.6 (212 reviews)" },
      ],
      notes: [],
    });
    expect(out.sections.map((section) => section.heading)).toEqual([
      "How does the sizing run?",
      "Can I wash the shoes in a machine?",
      "Care and repairs",
    ]);
    expect(out.markdown).toContain("## Key features\n\n- Grippy 5 mm lugs\n");
    expect(out.markdown).toContain("## Details\n\n- Brand: Northwind\n");
  });

  it("says where a product description comes from without Product data", () => {
    const out = generateExtractive(article, { contentType: "product" });
    if (out.contentType !== "product") throw new Error("not a product");
    expect(out.name).toBe("Why winter breaks water mains");
    expect(out.details).toEqual([]);
    expect(out.notes).toEqual(["The page has no Product JSON-LD; name and description come from its title and text."]);
  });

  it("is deterministic", () => {
    for (const contentType of ["faq", "blog", "product"] as const) {
      const first = generateExtractive(product, { contentType, topic: "shoe" });
      expect(generateExtractive(structuredClone(product), { contentType, topic: "shoe" })).toEqual(first);
    }
  });
});

describe("GenerateOptions", () => {
  it.each([
    [{ contentType: "faq" }, true],
    [{ contentType: "blog", topic: "pipes" }, true],
    [{ contentType: "recipe" }, false],
    [{ contentType: "faq", topic: "  " }, false],
    [{ contentType: "faq", topic: "x".repeat(201) }, false],
    [{ contentType: "faq", extra: true }, false],
    [{}, false],
  ])("%j valid: %s", (options, valid) => {
    expect(GenerateOptions.safeParse(options).success).toBe(valid);
  });
});
