/** Words too common to say what a topic is about (English; other languages' short words are cut by length). */
const STOPWORDS = new Set([
  ...["the", "and", "for", "with", "about", "from", "into", "that", "this", "what", "which", "who", "how"],
  ...["why", "when", "where", "are", "was", "were", "can", "does", "your", "our", "their", "its", "you"],
]);

const words = (text: string): string[] =>
  text
    .toLowerCase()
    .normalize("NFKC")
    .match(/[\p{L}\p{N}]+/gu) ?? [];

export type TopicMatcher = (text: string) => boolean;

/** A word without a common English ending, so that "price" finds "pricing" and "replacement" finds "replacing". */
const stem = (word: string): string => {
  const cut = word.replace(/(?:ments?|ings?|ed|es|s)$/, "").replace(/e$/, "");
  return cut.length >= 3 ? cut : word;
};

/**
 * What "matches the topic" means for every generator: a text matches when one of the topic's
 * words (3 letters or more, common English words left out), without a common English ending
 * (-ment, -ing, -ed, -es, -s, then -e), starts a word of the text, case-insensitively: "price" finds
 * "pricing" and "prices". A topic with no such word ("AI", "Go") matches as a whole word.
 * Without a topic everything matches.
 */
export const topicMatcher = (topic: string | null | undefined): TopicMatcher => {
  const wanted = words(topic ?? "")
    .filter((word) => word.length >= 3 && !STOPWORDS.has(word))
    .map(stem);
  if (!topic || topic.trim() === "") return () => true;
  if (wanted.length === 0) {
    const whole = words(topic).join(" ");
    return (text) => ` ${words(text).join(" ")} `.includes(` ${whole} `);
  }
  return (text) => {
    const have = words(text);
    return wanted.some((word) => have.some((candidate) => candidate.startsWith(word)));
  };
};
