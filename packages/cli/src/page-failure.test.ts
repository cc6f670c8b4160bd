import { failedPage, type PageReport } from "@scan/reports";
import { pageFailureOf } from "./page-failure";

const completed = (status: "pass" | "fail", description: string): PageReport => ({
  ...failedPage("https://a.example/", "quick", { code: "x", message: "" }),
  status: "completed",
  error: null,
  checks: [
    {
      id: "http-status",
      category: "seo",
      status,
      score: status === "pass" ? 10 : 0,
      maxScore: 10,
      severity: "critical",
      title: "Page answers with a success status",
      description,
      fix: "",
    },
  ],
});

describe("pageFailureOf", () => {
  it("names a page that answered 4xx, or did not answer at all", () => {
    expect(pageFailureOf(completed("fail", "The page answered HTTP 404."))).toBe("The page answered HTTP 404.");
    expect(
      pageFailureOf(failedPage("https://a.example/", "quick", { code: "upstream_failure", message: "HTTP 503" })),
    ).toBe("it did not answer: HTTP 503");
  });

  it("says nothing of a page that answered, or of a scan the service could not complete", () => {
    expect(pageFailureOf(completed("pass", "The page answered HTTP 200."))).toBeNull();
    expect(
      pageFailureOf(failedPage("https://a.example/", "quick", { code: "internal_error", message: "" })),
    ).toBeNull();
  });
});
