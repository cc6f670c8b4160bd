import { judgeCorpusPage } from "../fixture";
import { author } from "../geo/author.check";
import { entitySameas } from "../geo/entity-sameas.check";
import { articleSchema } from "./article-schema.check";
import { organizationSchema } from "./organization-schema.check";
import { structuredData } from "./structured-data.check";

/**
 * theverge and videos-2 wrap their one JSON-LD block in <![CDATA[: the JSON-LD checks say the
 * Organization, Article and Person they declare are present but unreadable, not missing, and
 * their fix is to remove the wrapper.
 */
describe.each(["theverge", "videos-2"])("%s: JSON-LD wrapped in CDATA is present but unreadable", (name) => {
  it.each([
    [structuredData, /^1 JSON-LD block, but block 1 \(NewsArticle\) is present but unreadable: <!\[CDATA\[ wraps it/],
    [organizationSchema, /^Organization "[^"]+" is present but unreadable: JSON-LD block 1 declares NewsArticle/],
    [articleSchema, /^NewsArticle markup \("[^"]+"\) is present but unreadable/],
    [entitySameas, /is present but unreadable: JSON-LD block 1/],
  ])("%#", (check, description) => {
    const verdict = judgeCorpusPage(check, name);
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(description);
    expect(verdict.description).not.toMatch(/^No |has no Organization/);
    expect(verdict.fix).toMatch(
      /^Remove the <!\[CDATA\[ \.\.\. \]\]> \(or <!-- \.\.\. -->\) wrapper around JSON-LD block 1/,
    );
  });

  it("author passes on the visible byline or meta, not on the unreadable block", () => {
    expect(judgeCorpusPage(author, name).status).toBe("pass");
  });
});
