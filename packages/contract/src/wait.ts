/**
 * A wait as people say it: "a few seconds", "about 40 seconds", "about 59 minutes", "about 2
 * hours", to the nearest minute or hour. The exact number of seconds stays in Retry-After for
 * programs; a person reads this.
 */
export const waitInWords = (seconds: number): string => {
  const s = Math.max(0, Math.ceil(seconds));
  if (s <= 5) return "a few seconds";
  if (s < 60) return `about ${Math.ceil(s / 5) * 5} seconds`;
  const minutes = Math.round(s / 60);
  if (minutes === 1) return "about a minute";
  if (minutes < 60) return `about ${minutes} minutes`;
  const hours = Math.round(s / 3_600);
  return hours === 1 ? "about an hour" : `about ${hours} hours`;
};

/**
 * An error's message and its hint as one text: the message is closed as a sentence first, so
 * the two never run together ("…for this user Retry after…").
 */
export const problemSentence = (message: string, hint: string | null | undefined): string => {
  const closed = /[.!?…:]$/.test(message.trim()) ? message.trim() : `${message.trim()}.`;
  return hint?.trim() ? `${closed} ${hint.trim()}` : closed;
};
