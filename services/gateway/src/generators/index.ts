/** The generators feature's surface: what the composition root and other features use of it. */
export { evaluateRoutes } from "./evaluate.route";
export * from "./generator-schemas";
export { createGeneratorTools, type GeneratorTools } from "./generator-tools";
export { generatorRoutes } from "./generators.route";
