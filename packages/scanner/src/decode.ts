const META_CHARSET = /<meta[^>]+charset\s*=\s*["']?\s*([a-z0-9_:.-]+)/i;

const charsetFromContentType = (contentType: string | undefined): string | null =>
  /charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? "")?.[1] ?? null;

/**
 * Decodes a served body as a browser would, closely enough for judging it: the header's
 * charset, else a meta charset in the first 1,024 bytes, else UTF-8. An unknown label falls
 * back to UTF-8 rather than failing the scan.
 */
export const decodeBody = (body: Buffer, contentType: string | undefined): string => {
  const label =
    charsetFromContentType(contentType) ?? META_CHARSET.exec(body.subarray(0, 1024).toString("latin1"))?.[1] ?? "utf-8";
  try {
    return new TextDecoder(label).decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
};
