import { z } from "zod";

/** A total score's letter (docs/spec/public-scanning-api.md §3.2); the scorer in @scan/checks gives it. */
export const Grade = z.enum(["A+", "A", "B+", "B", "C", "D", "F"]);
export type Grade = z.infer<typeof Grade>;
