import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { Email, INVISIBLE, normaliseEmail } from "./email";

const email = (input: string) => {
  const result = normaliseEmail(input);
  return result.ok ? result.email : `refused: ${result.problem}`;
};

describe("normaliseEmail", () => {
  it("makes look-alikes one address: NFKC, case, spaces around, the domain's trailing dot", () => {
    for (const spelling of [
      "carol@adv.test",
      "carol@adv.test.",
      "ｃarol@adv.test",
      "CAROL@ADV.TEST",
      " Carol@Adv.Test. ",
      "carol＠adv.test",
    ])
      expect(email(spelling)).toBe("carol@adv.test");
    expect(email("ﬁona@example.com")).toBe("fiona@example.com");
    expect(email("𝐁𝐄𝐍@example.com")).toBe("ben@example.com");
    expect(email("admin@localhost")).toBe("admin@localhost");
    expect(email("\t carol@adv.test\r\n")).toBe("carol@adv.test");
  });

  it("refuses an invisible character, naming it and where it is", () => {
    expect(email("carol@adv.test\u200b")).toBe(
      "refused: contains an invisible character (U+200B) at position 15; type the address again without it",
    );
    for (const [spelling, named] of [
      ["car\u00adol@adv.test", "U+00AD"],
      ["\u202ecarol@adv.test", "U+202E"],
      ["carol\u200d@adv.test", "U+200D"],
      ["carol@adv.test\u2066", "U+2066"],
      ["\ufeffcarol@adv.test", "U+FEFF"],
      ["carol\u{E0041}@adv.test", "U+E0041"],
      ["carol\ufe0f@adv.test", "U+FE0F"],
      ["carol\u3164@adv.test", "U+3164"],
      ["carol\t@adv.test", "U+0009"],
    ])
      expect(email(spelling as string)).toMatch(`(${named})`);
  });

  it("refuses what is not local@domain", () => {
    expect(email("")).toBe("refused: must not be empty");
    expect(email("carol adv@test")).toBe("refused: must not contain spaces");
    expect(email("carol\u00a0@adv.test")).toBe("refused: must not contain spaces");
    expect(email("carol.adv.test")).toBe("refused: must be an email address: local@domain");
    expect(email("a@b@c")).toBe("refused: must be an email address: local@domain");
    expect(email("carol@adv..test")).toMatch(/has an empty part/);
    expect(email("carol@adv.test..")).toMatch(/has an empty part/);
    expect(email(`${"a".repeat(250)}@b.cd`)).toBe("refused: must be at most 254 characters");
  });

  it("is the Email schema's reading, with the problem as its message", () => {
    expect(Email.parse("Carol@Adv.Test.")).toBe("carol@adv.test");
    expect(Email.safeParse("carol@adv.test\u200b").error?.issues[0]?.message).toMatch(
      /^contains an invisible character/,
    );
    expect(Email.safeParse(42).error?.issues[0]?.message).toBe("must be a string");
  });
});

describe("the migration's character class", () => {
  const sql = readFileSync(
    resolve(__dirname, "../../../prisma/migrations/20261127000000_email_normalised/migration.sql"),
    "utf8",
  );
  const ranges = [
    ...(sql.match(/'\[(\\u[^']*)\]'/)?.[1] ?? "").matchAll(/\\[uU]([0-9A-F]+)(?:-\\[uU]([0-9A-F]+))?/g),
  ].map(([, from, to]) => [Number.parseInt(from as string, 16), Number.parseInt((to ?? from) as string, 16)] as const);

  it("strips only characters the normaliser refuses, and every one of the usual suspects", () => {
    expect(ranges.length).toBeGreaterThan(20);
    for (const [from, to] of ranges)
      for (let point = from; point <= to; point++) expect(INVISIBLE.test(String.fromCodePoint(point))).toBe(true);
    const stripped = (point: number) => ranges.some(([from, to]) => point >= from && point <= to);
    for (const point of [
      0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x202a, 0x202e, 0x2066, 0x2069, 0x00ad, 0x2060, 0xfeff, 0x061c, 0xe0041,
      0xfe0f, 0x3164, 0x180e,
    ])
      expect(stripped(point)).toBe(true);
  });
});
