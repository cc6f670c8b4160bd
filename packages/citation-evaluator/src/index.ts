/** The AEO 2.0 evaluator: a deterministic score of caller-supplied citation, evidence and revenue observations. */
export * from "./citation";
export * from "./evaluate";
export * from "./evidence";
export * from "./input";
export * from "./output";
export * from "./recommendations";
export * from "./revenue";
export * from "./run";
export * from "./site";
