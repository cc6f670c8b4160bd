import { attributes, xmlAttribute, xmlText } from "./xml";

describe("XML escaping", () => {
  it("escapes markup in text and attributes", () => {
    expect(xmlText(`<a href="x">&]]></a>`)).toBe('&lt;a href="x"&gt;&amp;]]&gt;&lt;/a&gt;');
    expect(xmlAttribute(`"it's" <b>\n\t\r`)).toBe("&quot;it's&quot; &lt;b&gt;&#10;&#9;&#13;");
  });

  it("replaces characters XML cannot carry", () => {
    expect(xmlText("a\u0000b\u0008c\u001Fd\uFFFEe\uD800f")).toBe("a\uFFFDb\uFFFDc\uFFFDd\uFFFDe\uFFFDf");
    // a surrogate pair is one character, and stays
    expect(xmlText("😀")).toBe("😀");
  });

  it("writes attributes in order and leaves out undefined ones", () => {
    expect(attributes({ name: "a&b", skipped: undefined, tests: 3 })).toBe(' name="a&amp;b" tests="3"');
  });
});
