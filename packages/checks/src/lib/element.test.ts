import { parseDocument } from "../page";
import { readableText } from "./element";

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
