import { parseDocument } from "../page";
import { sharedWords, visibleText, wordCounts } from "./words";

describe("visibleText", () => {
  it("reads text in document order without scripts, styles, noscript or templates, leaving the DOM as it was", () => {
    const doc = parseDocument(
      "<html><body><p>One <b>two</b></p><script>var x = 1</script><style>p{}</style><noscript>no</noscript><template>t</template><p>three</p></body></html>",
    );
    const before = doc.body.innerHTML;
    expect(wordCounts(visibleText(doc.body)).total).toBe(3);
    expect(visibleText(doc.body).replace(/\s+/g, " ").trim()).toBe("One two three");
    expect(doc.body.innerHTML).toBe(before);
  });
});

describe("sharedWords", () => {
  it("counts words with repetition, ignoring case and punctuation", () => {
    const reference = wordCounts("Ship it. Ship it, ship it! Don't wait.");
    expect(reference.total).toBe(8);
    expect(sharedWords(reference, wordCounts("ship IT don't wait"))).toBe(4 / 8);
    expect(sharedWords(reference, reference)).toBe(1);
  });

  it("is 1 for an empty reference", () => {
    expect(sharedWords(wordCounts(""), wordCounts("anything"))).toBe(1);
  });
});
