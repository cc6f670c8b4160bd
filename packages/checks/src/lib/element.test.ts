import { parseDocument } from "../page";
import { readableText, settleBreaks } from "./element";

const textOf = (html: string): string => {
  const body = parseDocument(`<html><body>${html}</body></html>`).body;
  return readableText(body);
};

describe("readableText", () => {
  it("sets elements side by side apart where their words would run together", () => {
    expect(
      textOf('<p><span>by</span> <a href="/a">Lucas Nolan</a><span>22 Dec 2016</span><a href="#c">651</a></p>'),
    ).toBe("by Lucas Nolan 22 Dec 2016 651");
    expect(textOf("<nav><a>Home</a><a>News</a><a>Sport</a></nav>")).toBe("Home News Sport");
  });

  it("breaks lines at blocks and <br>", () => {
    expect(textOf("<div><p>One.</p><p>Two.</p></div>")).toBe("One. Two.");
    expect(textOf("<p>first line<br>second line</p>")).toBe("first line second line");
    expect(textOf("<ul><li>a</li><li>b</li></ul>")).toBe("a b");
  });

  it("keeps a word split by markup whole and punctuation against its word", () => {
    expect(textOf("<p><b>W</b>ord and <i>emph</i>asis</p>")).toBe("Word and emphasis");
    expect(textOf("<h2><span>History</span><span><span>[</span><a>edit</a><span>]</span></span></h2>")).toBe(
      "History[edit]",
    );
  });

  it("reads no script, style or markup-hidden text", () => {
    expect(
      textOf('<p>Shown<script>var x = 1;</script><span hidden>hidden</span><span style="display:none">gone</span></p>'),
    ).toBe("Shown");
  });
});

describe("settleBreaks", () => {
  const gap = "\uffff";
  it("puts a space where elements set side by side join two words, nothing beside punctuation", () => {
    expect(settleBreaks(`Lucas Nolan${gap}22 Dec 2016${gap}${gap}651`)).toBe("Lucas Nolan 22 Dec 2016 651");
    expect(settleBreaks(`History${gap}[${gap}edit${gap}]`)).toBe("History[edit]");
    expect(settleBreaks(`${gap}start and end${gap}`)).toBe("start and end");
    expect(settleBreaks("no breaks at all")).toBe("no breaks at all");
  });

  it("reads letters outside the Basic Multilingual Plane whole", () => {
    // U+1D400 MATHEMATICAL BOLD CAPITAL A is a letter written as two UTF-16 units; an emoji is not a letter
    expect(settleBreaks(`\u{1d400}${gap}\u{1d401}`)).toBe("\u{1d400} \u{1d401}");
    expect(settleBreaks(`word${gap}\u{1f600}`)).toBe("word\u{1f600}");
    expect(settleBreaks(`中文${gap}字`)).toBe("中文 字");
  });
});
