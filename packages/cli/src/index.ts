/** The command-line client's settings, for the generated configuration reference. */
export * from "./config";
