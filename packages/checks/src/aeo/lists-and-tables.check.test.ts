import { judge } from "../fixture";
import { listsAndTables } from "./lists-and-tables.check";

const main = (inner: string) => `<html><body><main>${inner}</main></body></html>`;

describe("lists-and-tables", () => {
  it("passes with a list of three", () => {
    const verdict = judge(listsAndTables, main("<p>Steps:</p><ol><li>a</li><li>b</li><li>c</li></ol>"));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toBe("The main content has 1 list of 3 or more items.");
  });

  it("passes with a table with headers", () => {
    const verdict = judge(
      listsAndTables,
      main("<table><tr><th>Plan</th><th>Price</th></tr><tr><td>A</td><td>1</td></tr></table>"),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toBe("The main content has 1 table with header cells.");
  });

  it("fails with short lists, header-less tables and menus only", () => {
    const verdict = judge(
      listsAndTables,
      main(
        "<ul><li>a</li><li>b</li></ul><table><tr><td>x</td></tr></table><nav><ul><li>1</li><li>2</li><li>3</li></ul></nav>",
      ),
    );
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/no list of 3 or more items and no table/);
  });
});

describe("lists-and-tables: the content's own list candidate", () => {
  it("names paragraphs set one after another with bold lead-ins as one list's items", () => {
    const item = (lead: string) => `<p><b>${lead}:</b> what this step asks of the reader, in a few words.</p>`;
    const verdict = judge(listsAndTables, main(`${item("Measure") + item("Cut") + item("Sand")}<p>That is all.</p>`));
    expect(verdict.fix).toMatch(/^The 3 paragraphs beginning “Measure:”, “Cut:”, “Sand:” are items of one list/);
  });

  it("names the sentence that runs a series of items", () => {
    const verdict = judge(
      listsAndTables,
      main("<p>The kit holds a saw, a drill, sandpaper and glue, which is all a first project needs.</p>"),
    );
    expect(verdict.fix).toMatch(/^The sentence “The kit holds a saw, a drill, sandpaper and glue/);
  });

  it("does not take a clause or an apposition between commas for a series", () => {
    const verdict = judge(
      listsAndTables,
      main("<p>He chose Mitt Romney, an ultimate establishment figure, as his first pick for the post.</p>"),
    );
    expect(verdict.fix).toMatch(/is set as a list's items or runs a series of them/);
  });
});
