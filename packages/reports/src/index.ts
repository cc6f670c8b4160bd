/**
 * Renderers of scan results: text for people; JSON, CSV, SARIF 2.1.0 and JUnit XML for programs
 * and CI systems; SARIF and JUnit of a whole-site audit too.
 */
import manifest from "../package.json";
import type { ToolInfo } from "./page-report";

export * from "./audit-export";
export * from "./audit-junit";
export * from "./audit-sarif";
export * from "./csv";
export * from "./formats";
export * from "./json";
export * from "./junit";
export * from "./page-report";
export * from "./paged-document";
export * from "./sarif";
export * from "./scan-presenter";
export * from "./text";
export * from "./top-problems";

/** The product as reports name it (SARIF's tool.driver, JUnit's properties). */
export const TOOL: ToolInfo = { name: "aeo-scan", version: manifest.version };
