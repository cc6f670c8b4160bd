import { problemSentence, waitInWords } from "./wait";

describe("waitInWords", () => {
  it.each([
    [0, "a few seconds"],
    [5, "a few seconds"],
    [6, "about 10 seconds"],
    [41, "about 45 seconds"],
    [60, "about a minute"],
    [89, "about a minute"],
    [90, "about 2 minutes"],
    [3_550, "about 59 minutes"],
    [3_570, "about an hour"],
    [5_399, "about an hour"],
    [5_400, "about 2 hours"],
  ])("%i seconds reads as %s", (seconds, words) => {
    expect(waitInWords(seconds)).toBe(words);
  });
});

describe("problemSentence", () => {
  it("closes the message before the hint", () => {
    expect(
      problemSentence("Rate limit of 10 requests per hour reached for this user", "Try again in about 59 minutes."),
    ).toBe("Rate limit of 10 requests per hour reached for this user. Try again in about 59 minutes.");
  });
  it("keeps a message that is already a sentence, and stands alone without a hint", () => {
    expect(problemSentence("The server could not be reached.", "Check your connection.")).toBe(
      "The server could not be reached. Check your connection.",
    );
    expect(problemSentence("Not found", null)).toBe("Not found.");
  });
});
