#!/usr/bin/env node
// The client is TypeScript, run through tsx as the services are.
require("tsx/cjs");
require("../src/main.ts");
