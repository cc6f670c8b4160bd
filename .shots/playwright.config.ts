import base from "../playwright.config";
export default { ...base, testDir: ".", globalSetup: "../tests/e2e/global-setup.ts", workers: 1 };
