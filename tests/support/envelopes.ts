/** The envelope form a request's X-Response-Form selects (case-insensitive; anything else is A). */
export const formOf = (header: string | undefined): "A" | "B" => (header?.trim().toUpperCase() === "B" ? "B" : "A");

/** true when the body is exactly the selected form's envelope for this status */
export const inEnvelope = (form: "A" | "B", status: number, body: Record<string, unknown>): boolean => {
  if (status >= 400) {
    if (form === "B") {
      return (
        Object.keys(body).sort().join() === "code,error" &&
        typeof body.error === "string" &&
        typeof body.code === "string" &&
        /^[A-Z_]+$/.test(body.code)
      );
    }
    const error = body.error as Record<string, unknown> | undefined;
    return (
      body.ok === false &&
      typeof error?.code === "string" &&
      typeof error.message === "string" &&
      typeof error.hint === "string"
    );
  }
  return form === "B" ? body.success === true && "data" in body : body.ok === true && "data" in body;
};
