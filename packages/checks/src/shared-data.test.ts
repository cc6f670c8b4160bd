import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const load = (dir: string): typeof import("./shared-data") => {
  const before = process.env.SHARED_TEST_DATA;
  process.env.SHARED_TEST_DATA = dir;
  try {
    let loaded: typeof import("./shared-data") | undefined;
    jest.isolateModules(() => {
      loaded = require("./shared-data");
    });
    if (!loaded) throw new Error("shared-data did not load");
    return loaded;
  } finally {
    if (before === undefined) delete process.env.SHARED_TEST_DATA;
    else process.env.SHARED_TEST_DATA = before;
  }
};

describe("the shared test data's location", () => {
  const scratch = mkdtempSync(join(tmpdir(), "shared-data-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("finds a corpus in the folder SHARED_TEST_DATA names", () => {
    mkdirSync(join(scratch, "corpus-parser", "pages"), { recursive: true });
    expect(load(scratch).sharedCorpus("corpus-parser")).toBe(join(scratch, "corpus-parser"));
  });

  it("says where it looked and what to set when a corpus is absent", () => {
    expect(() => load(scratch).sharedCorpus("corpus")).toThrow(
      `The shared test data is absent: ${join(scratch, "corpus", "pages")} does not exist`,
    );
    expect(() => load(scratch).sharedCorpus("corpus")).toThrow(/set SHARED_TEST_DATA/);
  });

  it("is ../shared beside the repository by default, where the corpora are", () => {
    const { sharedCorpus } = load(join(__dirname, "../../../../shared"));
    expect(sharedCorpus("corpus")).toMatch(/shared\/corpus$/);
  });
});
