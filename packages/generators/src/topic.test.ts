import { topicMatcher } from "./topic";

describe("topicMatcher", () => {
  it.each<[string | null | undefined, string, boolean]>([
    [undefined, "anything", true],
    ["", "anything", true],
    ["price", "Our pricing is simple", true],
    ["Prices", "What does it cost?", false],
    ["shipping costs", "We ship abroad", false],
    ["shipping costs", "Costs of returns", true],
    ["the sizing", "How does the sizing run?", true],
    ["the sizing", "The best shoe", false],
    ["AI", "How AI engines cite pages", true],
    ["AI", "Said the aide", false],
    ["café", "Le CAFÉ du coin", true],
  ])("topic %j matches %j: %s", (topic, text, expected) => {
    expect(topicMatcher(topic)(text)).toBe(expected);
  });
});
