import { AppError, describeZodError } from "@scan/contract";
import type { z } from "zod";

/** One part of a request a route takes (its path parameters, query string or JSON body). */
export type InputSpec<S extends z.ZodType = z.ZodType> = {
  schema: S;
  /** what the 400 tells the caller to send instead */
  hint: string;
  /**
   * How the 400 names what is wrong: `issues` (the default) as the contract's validationError
   * (`url: Invalid URL`); `names` also names unknown fields and parameters (`unknown field "x"`).
   */
  report?: "issues" | "names";
};

export type BodySpec<S extends z.ZodType = z.ZodType> = InputSpec<S> & {
  /** a request without a body is the empty object: every field is optional */
  optional?: boolean;
  /**
   * what the body is sent as: a JSON object (the default), or CSV text (`text/csv`, read as a
   * string up to the same limit; the schema then parses that string)
   */
  mediaType?: BodyMediaType;
};

export type BodyMediaType = "application/json" | "text/csv";

const describeNamed = (error: z.ZodError, where: string): string =>
  error.issues
    .slice(0, 5)
    .map((issue) => {
      if (issue.code === "unrecognized_keys")
        return `unknown ${where} ${issue.keys.map((key) => `"${key}"`).join(", ")}`;
      return issue.path.length > 0 ? `${issue.path.join(".")}: ${issue.message}` : issue.message;
    })
    .join("; ");

/** `value` through the spec's schema, or 400 naming what is at fault; `where` names an unknown key ("field"). */
export const parseInput = <S extends z.ZodType>(spec: InputSpec<S>, value: unknown, where: string): z.output<S> => {
  const parsed = spec.schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const message = spec.report === "names" ? describeNamed(parsed.error, where) : describeZodError(parsed.error);
  throw new AppError("invalid_request", message, spec.hint);
};

/** How the request carried its body, as far as the JSON parser left it unread. */
export type BodySent = { contentType: string | undefined; hasBody: boolean };

/**
 * The JSON body through the spec's schema. Anything but a JSON object (none, an array, a
 * scalar) is 400; a body the JSON parser left unread was sent without Content-Type:
 * application/json, and the 400 says so.
 */
export const parseBody = <S extends z.ZodType>(
  spec: BodySpec<S>,
  body: unknown,
  sent: BodySent = { contentType: undefined, hasBody: false },
): z.output<S> => {
  if (spec.mediaType === "text/csv") {
    if (typeof body !== "string") {
      throw new AppError(
        "invalid_request",
        !sent.hasBody
          ? "The request has no body: send the CSV file"
          : sent.contentType
            ? `The request body was sent as ${sent.contentType.slice(0, 60)}, which is not CSV`
            : "The request body was sent without a Content-Type",
        `Send it with the header Content-Type: text/csv. ${spec.hint}`,
      );
    }
    return parseInput(spec, body, "field");
  }
  if (body === undefined && sent.hasBody) {
    throw new AppError(
      "invalid_request",
      sent.contentType
        ? `The request body was sent as ${sent.contentType.slice(0, 60)}, which is not JSON`
        : "The request body was sent without a Content-Type",
      `Send it as JSON with the header Content-Type: application/json. ${spec.hint}`,
    );
  }
  const value = body === undefined && spec.optional ? {} : body;
  if (value === undefined || value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new AppError(
      "invalid_request",
      "The request body must be a JSON object",
      spec.optional ? spec.hint : `${spec.hint} Content-Type must be application/json.`,
    );
  }
  return parseInput(spec, value, "field");
};
