import { z } from "zod";
import { AppError } from "./errors";

/**
 * Characters that draw nothing or change how the text around them reads: control characters,
 * format characters (zero-width space and joiners, bidi embeddings, overrides and isolates,
 * the byte-order mark, soft hyphen, tags), every default-ignorable code point (variation
 * selectors, Hangul fillers, ...) and the line and paragraph separators. An address holding one
 * looks like another address; it is refused, never silently cleaned, so the user sees what
 * was typed. The migration 20261127000000_email_normalised strips the same set from stored rows.
 */
export const INVISIBLE = /[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\p{Zl}\p{Zp}]/u;

const codePoint = (char: string): string =>
  `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;

const EDGE_SPACE = /^[\p{Zs}\t\n\v\f\r]+|[\p{Zs}\t\n\v\f\r]+$/gu;

export type NormalisedEmail = { ok: true; email: string } | { ok: false; problem: string };

/**
 * The one normaliser of email addresses, used wherever one is compared or stored (sign-up,
 * sign-in, invitations, password resets, the accounts CLI): Unicode NFKC (a full-width `ｃ` is
 * `c`, a full-width `＠` is `@`), lower case, surrounding spaces trimmed, and the trailing dot of
 * a fully qualified domain (`adv.test.`) removed, so look-alikes are one address. Only the shape
 * local@domain is required beyond that: self-hosted operators use addresses such as
 * admin@localhost that stricter validators refuse, and no mail is ever sent to them.
 */
export const normaliseEmail = (input: string): NormalisedEmail => {
  // spaces, tabs and line ends around a pasted address are not part of it
  const trimmed = input.replace(EDGE_SPACE, "");
  const hidden = INVISIBLE.exec(trimmed);
  if (hidden) {
    return {
      ok: false,
      problem: `contains an invisible character (${codePoint(hidden[0])}) at position ${hidden.index + 1}; type the address again without it`,
    };
  }
  const email = trimmed.normalize("NFKC").toLowerCase().normalize("NFKC");
  if (email === "") return { ok: false, problem: "must not be empty" };
  if (/\s/.test(email)) return { ok: false, problem: "must not contain spaces" };
  const at = email.lastIndexOf("@");
  if (at <= 0 || email.indexOf("@") !== at) return { ok: false, problem: "must be an email address: local@domain" };
  const local = email.slice(0, at);
  const domain = email.slice(at + 1).replace(/\.$/, "");
  if (domain === "" || domain.split(".").some((label) => label === "")) {
    return { ok: false, problem: `must be an email address: the domain "${email.slice(at + 1)}" has an empty part` };
  }
  const normalised = `${local}@${domain}`;
  if (normalised.length > 254) return { ok: false, problem: "must be at most 254 characters" };
  return { ok: true, email: normalised };
};

/** An email address in a request body or a command's argument, normalised by `normaliseEmail`. */
export const Email = z.string({ error: "must be a string" }).transform((value, ctx) => {
  const result = normaliseEmail(value);
  if (result.ok) return result.email;
  ctx.addIssue({ code: "custom", message: result.problem });
  return z.NEVER;
});

/** `normaliseEmail` for code that takes an address outside a request body (the accounts CLI's arguments): a 400 when it is not one. */
export const emailOrRefusal = (input: string): string => {
  const result = normaliseEmail(input);
  if (result.ok) return result.email;
  throw new AppError("invalid_request", `email ${result.problem}`, "Give the address as local@domain.");
};
