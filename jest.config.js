/** Unit tests sit next to pure code; integration and end-to-end tests live in tests/. */
const transform = { "^.+\\.(t|j|mj)sx?$": ["@swc/jest", { jsc: { target: "es2022" }, module: { type: "commonjs" } }] };
// ESM-only dependencies (linkedom's selector engine) are compiled to CommonJS for jest;
// everything else in node_modules is loaded as it is.
const ESM_ONLY = [
  "css-select",
  "css-what",
  "domutils",
  "domhandler",
  "dom-serializer",
  "entities",
  "nth-check",
  "boolbase",
  "htmlparser2",
  "domelementtype",
  "cssomnom",
  "uhyphen",
  "html-escaper",
  "anynum",
  "linkedom",
  "language-tags",
  "syllable",
  "@seriousme/openapi-schema-validator",
  "change-case",
  "supports-color",
  "index-to-position",
  "parse-json",
];
const transformIgnorePatterns = [`/node_modules/(?!(\\.pnpm|${ESM_ONLY.join("|")})[/@])`];

module.exports = {
  projects: [
    {
      displayName: "unit",
      testEnvironment: "node",
      transform,
      transformIgnorePatterns,
      testMatch: [
        "<rootDir>/packages/**/src/**/*.test.ts",
        "<rootDir>/services/**/src/**/*.test.ts",
        "<rootDir>/scripts/**/*.test.ts",
      ],
    },
    {
      displayName: "integration",
      testEnvironment: "node",
      transform,
      transformIgnorePatterns,
      testMatch: ["<rootDir>/tests/**/*.test.ts"],
    },
  ],
  // a global option: jest ignores it per project. Integration tests wait on real services; this
  // only stops a test that hangs, and is no time bound: a loaded machine takes minutes where an
  // idle one takes seconds (the benchmark measures how fast)
  testTimeout: 300000,
};
