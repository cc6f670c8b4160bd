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
