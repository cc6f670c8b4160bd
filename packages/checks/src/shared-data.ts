import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

/**
 * The shared test data: real pages kept outside the repository (the project keeps no copy of
 * pages taken from public repositories). By default `../shared` beside the repository's folder;
 * SHARED_TEST_DATA names another folder.
 */
export const SHARED_DATA_DIR = resolve(process.env.SHARED_TEST_DATA ?? join(__dirname, "../../../../shared"));

/** The two real-page corpora: `corpus` (the rules' own) and `corpus-parser` (never used to write a rule). */
export type SharedCorpus = "corpus" | "corpus-parser";

/**
 * A corpus's folder (holding `pages/<name>/index.html` and `lighthouse-seo.json`); when it is
 * absent, an error that says where it was looked for and how to point at it.
 */
export const sharedCorpus = (name: SharedCorpus): string => {
  const dir = join(SHARED_DATA_DIR, name);
  if (!existsSync(join(dir, "pages")))
    throw new Error(
      `The shared test data is absent: ${join(dir, "pages")} does not exist. The real-page corpora are kept outside the repository, in ../shared beside it; set SHARED_TEST_DATA to the folder that holds corpus/ and corpus-parser/.`,
    );
  return dir;
};
