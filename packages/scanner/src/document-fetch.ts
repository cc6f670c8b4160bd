import type { RedirectHop } from "@scan/contract";
import { type FetchedResponse, type FetchLimits, type FetchPolicy, fetchOnce } from "./http-fetch";

export type DocumentFetch = {
  final: FetchedResponse;
  redirects: RedirectHop[];
  redirectLoop: boolean;
};

const isRedirect = (status: number): boolean => status >= 300 && status < 400 && status !== 304;

/**
 * Fetches a document the way a crawler does, hop by hop, so that every redirect is recorded
 * and every hop's target is vetted before it is requested. A chain that revisits a URL is a
 * loop; a chain longer than maxRedirects stops there, and its last 3xx is the final status.
 */
export const fetchDocument = async (
  start: URL,
  policy: FetchPolicy,
  limits: FetchLimits & { maxRedirects: number },
): Promise<DocumentFetch> => {
  const redirects: RedirectHop[] = [];
  const seen = new Set<string>();
  let url = start;
  for (;;) {
    seen.add(url.toString());
    const response = await fetchOnce(url, policy, limits);
    const location = response.headers.location ?? null;
    if (!isRedirect(response.status) || location === null) return { final: response, redirects, redirectLoop: false };
    redirects.push({ url: url.toString(), status: response.status, location });
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      return { final: response, redirects, redirectLoop: false };
    }
    next.hash = "";
    if (seen.has(next.toString())) return { final: response, redirects, redirectLoop: true };
    if (redirects.length > limits.maxRedirects) return { final: response, redirects, redirectLoop: false };
    url = next;
  }
};
