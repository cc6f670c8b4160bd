/**
 * The API's refusal of a file, as a lead and the rows it names: "Nothing was imported: 1 of 3
 * rows cannot be imported. row 3: text: must not be blank; row 4: …" (all or nothing).
 */
export const rowProblems = (message: string): { lead: string; rows: string[] } => {
  const start = message.search(/\brow \d+: /);
  if (start < 0) return { lead: message, rows: [] };
  return {
    lead: message.slice(0, start).trim(),
    rows: message
      .slice(start)
      .split(/; (?=row \d+: |and \d+ more$)/)
      .map((row) => row.trim()),
  };
};
