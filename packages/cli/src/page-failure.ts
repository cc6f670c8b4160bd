import type { PageReport } from "@scan/reports";

/**
 * Why the page itself failed, or null when it answered: as Lighthouse CI fails a run whose page
 * did not load, whatever its assertions say. A scan that completed failed its `http-status`
 * check (a 4xx, no answer at the final URL, a redirect loop); a scan that failed did so on the
 * target (`upstream_failure`: no answer, a 5xx, a name that does not resolve). A scan that failed
 * on the service's side is no verdict on the page.
 */
export const pageFailureOf = (page: PageReport): string | null => {
  if (page.status === "failed")
    return page.error?.code === "upstream_failure" ? `it did not answer: ${page.error.message}` : null;
  const answer = page.checks.find((check) => check.id === "http-status");
  return answer?.status === "fail" ? answer.description : null;
};
