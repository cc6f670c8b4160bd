import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { type SharedCorpus, sharedCorpus } from "@scan/checks/testing";
import { z } from "zod";

/** The sites written to exercise the agentic-browsing audits, one folder each. */
export const AGENTIC_FIXTURES_DIR = resolve(__dirname, "../fixtures/agentic");

const SiteFile = z.object({
  file: z.string(),
  type: z.string(),
  status: z.number().int().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  /** answer this long after the request: a slow script, so that the page paints before it runs */
  delayMs: z.number().int().nonnegative().optional(),
});
/** `site.json`: what each path of the fixture's origin answers; any other path answers 404. */
const SiteMap = z.object({ files: z.record(z.string(), SiteFile) });

export type SiteAnswer = {
  status: number;
  contentType: string;
  headers: Record<string, string>;
  body: string;
  delayMs?: number;
};

/** One site the audits are run on: its page at `/` (or at `pagePath`) and what its other paths answer. */
export type AgenticSite = {
  /** `fixture/<folder>` or `corpus/<page>` */
  id: string;
  pagePath: string;
  answer: (path: string) => SiteAnswer;
};

/** What a path a site does not serve answers. */
export const NOT_FOUND: SiteAnswer = { status: 404, contentType: "text/plain", headers: {}, body: "not found\n" };

export const fixtureSites = (): AgenticSite[] =>
  readdirSync(AGENTIC_FIXTURES_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const dir = join(AGENTIC_FIXTURES_DIR, name);
      const map = SiteMap.parse(JSON.parse(readFileSync(join(dir, "site.json"), "utf8")));
      return {
        id: `fixture/${name}`,
        pagePath: "/",
        answer: (path) => {
          const file = map.files[path];
          if (!file) return NOT_FOUND;
          return {
            status: file.status ?? 200,
            contentType: file.type,
            headers: file.headers ?? {},
            body: readFileSync(join(dir, file.file), "utf8"),
            ...(file.delayMs ? { delayMs: file.delayMs } : {}),
          };
        },
      };
    });

/**
 * A shared corpus's pages, each at `/<name>/` of an origin that serves nothing else (as the corpus
 * server does): `corpus/<page>` for the rules' own corpus, `parser/<page>` for corpus-parser.
 */
export const corpusSites = (corpus: SharedCorpus = "corpus"): AgenticSite[] => {
  const pages = join(sharedCorpus(corpus), "pages");
  const prefix = corpus === "corpus" ? "corpus" : "parser";
  return readdirSync(pages)
    .sort()
    .map((name) => ({
      id: `${prefix}/${name}`,
      pagePath: `/${name}/`,
      answer: (path) =>
        path === `/${name}/`
          ? {
              status: 200,
              contentType: "text/html; charset=utf-8",
              headers: {},
              body: readFileSync(join(pages, name, "index.html"), "utf8"),
            }
          : NOT_FOUND,
    }));
};

/** Every page of both shared corpora. */
export const allCorpusSites = (): AgenticSite[] => [...corpusSites("corpus"), ...corpusSites("corpus-parser")];

/** Serves one site on a loopback port of its own (each site needs its own origin: /llms.txt is per origin). */
export const serveSite = async (site: AgenticSite): Promise<{ origin: string; close: () => Promise<void> }> => {
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
    const answer = site.answer(path);
    const send = () => {
      response.writeHead(answer.status, { "content-type": answer.contentType, ...answer.headers });
      response.end(answer.body);
    };
    if (answer.delayMs) setTimeout(send, answer.delayMs);
    else send();
  });
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
};
