/** Files and content generated from a page's snapshot: fixes (llms.txt, JSON-LD, robots.txt, ai-catalog.json, WebMCP form annotations) and content (FAQ, blog outline, product description). */
export * from "./fixes";
export * from "./generate";
export * from "./llm";
