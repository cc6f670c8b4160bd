import { countWords } from "./page";

describe("countWords", () => {
  it("counts words between spaces", () => {
    expect(countWords("  The quick  brown fox. ")).toBe(4);
    expect(countWords("")).toBe(0);
  });

  it("counts Chinese, Japanese and Thai, written without spaces, by the runtime's word breaker", () => {
    // one whitespace token each: a sentence of many words
    const chinese = countWords("一波波接續性低溫寒流報到，已將新竹尖石鄉後山一帶層層山巒披上嫣紅的彩衣。");
    const japanese = countWords("肉をくわえたイヌが、橋を渡っていました。");
    expect(chinese).toBeGreaterThanOrEqual(12);
    expect(japanese).toBeGreaterThanOrEqual(6);
    // an English name in a Japanese sentence is one more word, not merged into the sentence
    expect(countWords("肉をくわえたイヌが、橋を渡っていました。 Aesop")).toBe(japanese + 1);
  });
});
