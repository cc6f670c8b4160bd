import { rowProblems } from "./row-problems";

describe("a CSV import's refusal, read for the page", () => {
  it("splits the rows the API names from its lead", () => {
    expect(
      rowProblems(
        'Nothing was imported: 2 of 40 rows cannot be imported. row 3: text: must not be blank; row 9: locale: "english" is not a BCP 47 language tag such as en-US',
      ),
    ).toEqual({
      lead: "Nothing was imported: 2 of 40 rows cannot be imported.",
      rows: ["row 3: text: must not be blank", 'row 9: locale: "english" is not a BCP 47 language tag such as en-US'],
    });
  });

  it("keeps a row's own semicolons and the count of rows left unnamed", () => {
    expect(
      rowProblems("Nothing was imported: 12 of 12 rows cannot be imported. row 2: text: a; b; row 3: x; and 10 more")
        .rows,
    ).toEqual(["row 2: text: a; b", "row 3: x", "and 10 more"]);
  });

  it("leaves a refusal of the whole file as it is", () => {
    expect(rowProblems('Nothing was imported: the header names "txt"')).toEqual({
      lead: 'Nothing was imported: the header names "txt"',
      rows: [],
    });
  });
});
