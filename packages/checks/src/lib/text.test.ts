import { FIXED_SCAN_TIME, snapshotOf } from "../fixture";
import { parseDocument, preparePage } from "../page";
import { siteNameOf } from "./organization";
import { clip, clipAtWord, excerpt, isPlayerLine, jsonString, quoted, sentencesOf } from "./text";

describe("sentencesOf", () => {
  it("splits before a capital, an uncased letter or an opening quote, not before a digit or a lower-case word", () => {
    expect(sentencesOf("The vote is on Dec. 20 at noon. Turnout was high! “We won,” she said.")).toEqual([
      "The vote is on Dec. 20 at noon.",
      "Turnout was high!",
      "“We won,” she said.",
    ]);
    expect(sentencesOf("It costs approx. three dollars. ¿Por qué? Nadie sabe.")).toEqual([
      "It costs approx. three dollars.",
      "¿Por qué?",
      "Nadie sabe.",
    ]);
    expect(sentencesOf("今日は晴れ。明日は雨。")).toEqual(["今日は晴れ。", "明日は雨。"]);
    expect(sentencesOf("Version 3.5 shipped. 以上です。")).toEqual(["Version 3.5 shipped.", "以上です。"]);
  });
});

describe("cutting text", () => {
  it("clips to the length asked, marking a cut with one ellipsis character", () => {
    expect(clip("abcdefghij", 10)).toBe("abcdefghij");
    expect(clip("abcdefghijk", 10)).toBe("abcdefghi…");
    expect(clip("abcdefghijk", 10)).toHaveLength(10);
  });

  it("cuts an excerpt at a word and a quote without a mark", () => {
    expect(clipAtWord("Tides rise and fall twice a day", 14)).toBe("Tides rise and");
    expect(excerpt("Tides  rise and\nfall twice a day", 14)).toBe("Tides rise and…");
    expect(quoted("Tides rise and fall", 90)).toBe("“Tides rise and fall”");
  });

  it("writes a page's words as a JSON string that stays valid JSON-LD", () => {
    expect(jsonString('The "Daily" \\ News')).toBe('"The \\"Daily\\" \\\\ News"');
    expect(JSON.parse(`{"name": ${jsonString('He said "no"\n')}}`).name).toBe('He said "no"\n');
  });
});

describe("isPlayerLine", () => {
  const lineIn = (html: string): Node | null => parseDocument(`<html><body>${html}</body></html>`).querySelector("p");

  it("reads a short line whose every word the player's attributes hold as its overlay", () => {
    const player = lineIn('<div data-duration="03:08" data-source="CNN"><p>03:08 - Source: CNN</p></div>');
    expect(isPlayerLine("03:08 - Source: CNN", player?.firstChild ?? null)).toBe(true);
    const titled = lineIn('<div data-headline="Trump tweetstorm precedes Cabinet appointments"><p>x</p></div>');
    expect(isPlayerLine("Trump tweetstorm precedes Cabinet appointments", titled)).toBe(true);
  });

  it("does not read a sentence, or a line with a word of its own, as an overlay", () => {
    const player = lineIn('<div data-source="CNN" data-title="Storm hits coast"><p>x</p></div>');
    expect(isPlayerLine("Storm hits coast.", player)).toBe(false);
    expect(isPlayerLine("Storm hits the coast", player)).toBe(false);
  });
});

describe("siteNameOf", () => {
  const nameOf = (head: string) =>
    siteNameOf(preparePage(snapshotOf(`<html><head>${head}</head><body><p>Text.</p></body></html>`), FIXED_SCAN_TIME));
  const ld = (node: string) => `<script type="application/ld+json">${node}</script>`;

  it("reads the WebSite, then an Organization of this site, then og:site_name, then application-name", () => {
    const og = '<meta property="og:site_name" content="Coast  Notes">';
    expect(
      nameOf(
        `${og}${ld('{"@type":"Organization","name":"Owner Media"}')}${ld('{"@type":"WebSite","name":"Coast Notes"}')}`,
      ),
    ).toEqual({
      value: "Coast Notes",
      source: "JSON-LD WebSite name",
    });
    expect(nameOf(`${og}${ld('{"@type":"NewsMediaOrganization","name":"Coast Daily"}')}`)?.value).toBe("Coast Daily");
    expect(nameOf(`${og}${ld('{"@type":"Organization","name":"Wire Agency","url":"https://agency.net/"}')}`)).toEqual({
      value: "Coast Notes",
      source: "og:site_name",
    });
    expect(nameOf('<meta name="application-name" content="App B">')).toEqual({
      value: "App B",
      source: "application-name",
    });
  });

  it("reads the end of the title last, and says so, but not a headline's last part", () => {
    expect(nameOf("<title>Tide tables for the coming week | Coast Notes</title>")).toEqual({
      value: "Coast Notes",
      source: "the end of its <title>",
    });
    expect(
      nameOf('<title>Tide tables | Coast Notes</title><meta property="og:site_name" content="Coast">')?.value,
    ).toBe("Coast");
    expect(nameOf("<title>The failure of public schooling in one chart</title>")).toBeNull();
    expect(nameOf("<title>Notes: a guide to the tides of the coast</title>")).toBeNull();
  });
});
