/**
 * PostgreSQL text cannot hold U+0000: a string containing it fails the query. Inputs that are
 * stored or searched are refused with this check instead.
 */
export const hasNoNul = (value: string): boolean => !value.includes("\u0000");

export const NUL_MESSAGE = "must not contain NUL characters";
