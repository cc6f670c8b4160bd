import { z } from "zod";
import { likeLiteral, offsetOf, pageMeta, pageParams, queryEnum, queryUuid } from "./list-query";

const Page = z.strictObject(pageParams);

describe("page and limit", () => {
  it("default to page 1 and limit 20", () => {
    expect(Page.parse({})).toEqual({ page: 1, limit: 20 });
  });

  it.each([
    ["1", 1],
    ["20", 20],
    ["100", 100],
    ["007", 7],
  ])("limit %p is %i", (raw, limit) => {
    expect(Page.parse({ limit: raw }).limit).toBe(limit);
  });

  it.each(["0", "101", "-1", "1.5", "1e1", "0x10", " 5", "5 ", "+5", "", "abc", "9999999999"])(
    "limit %p is refused",
    (raw) => {
      expect(Page.safeParse({ limit: raw }).success).toBe(false);
    },
  );

  it("refuses a repeated parameter, saying so", () => {
    const parsed = Page.safeParse({ page: ["1", "2"] });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe("must be given once");
  });

  it.each([
    ["1", true],
    ["1000000", true],
    ["0", false],
    ["1000001", false],
  ])("page %p accepted: %p", (raw, ok) => {
    expect(Page.safeParse({ page: raw }).success).toBe(ok);
  });

  it("names the range in its message", () => {
    expect(Page.safeParse({ limit: "101" }).error?.issues[0]?.message).toBe("must be an integer from 1 to 100");
  });
});

describe("queryEnum and queryUuid", () => {
  const Query = z.strictObject({ colour: queryEnum(["red", "blue"], "red"), id: queryUuid() });

  it("default and accept exact values", () => {
    expect(Query.parse({})).toEqual({ colour: "red" });
    expect(Query.parse({ colour: "blue" }).colour).toBe("blue");
  });

  it("refuse other spellings", () => {
    for (const colour of ["Blue", "green", "", " red"]) expect(Query.safeParse({ colour }).success).toBe(false);
  });

  it("take a UUID in either case and give it lower-cased", () => {
    expect(Query.parse({ id: "7D4F5A52-4D8E-4A8E-9A55-0C7F1B0E9D11" }).id).toBe("7d4f5a52-4d8e-4a8e-9a55-0c7f1b0e9d11");
    for (const id of ["7d4f5a52", "not-a-uuid", "7d4f5a52-4d8e-4a8e-9a55-0c7f1b0e9d1z", ""]) {
      expect(Query.safeParse({ id }).success).toBe(false);
    }
  });

  it("refuse unknown parameters", () => {
    expect(Query.safeParse({ colour: "red", colur: "blue" }).success).toBe(false);
  });
});

describe("pageMeta and offsetOf", () => {
  it.each([
    [{ page: 1, limit: 20 }, 45, true, 0],
    [{ page: 2, limit: 20 }, 45, true, 20],
    [{ page: 3, limit: 20 }, 45, false, 40],
    [{ page: 4, limit: 20 }, 45, false, 60],
    [{ page: 1, limit: 20 }, 20, false, 0],
    [{ page: 1, limit: 20 }, 0, false, 0],
  ])("%p of %i: hasMore %p, offset %i", (page, total, hasMore, offset) => {
    expect(pageMeta(page, total)).toEqual({ ...page, total, hasMore });
    expect(offsetOf(page)).toBe(offset);
  });
});

describe("likeLiteral", () => {
  it.each([
    ["plain", "plain"],
    ["50%", "50\\%"],
    ["a_b", "a\\_b"],
    ["back\\slash", "back\\\\slash"],
    ["%_\\", "\\%\\_\\\\"],
  ])("%p becomes %p", (text, pattern) => {
    expect(likeLiteral(text)).toBe(pattern);
  });
});
