import { judge } from "../fixture";
import { charset } from "./charset.check";

const noHeader = { headers: { "content-type": "text/html" } };

describe("charset", () => {
  it("passes with a UTF-8 Content-Type header", () => {
    const verdict = judge(charset, "<html><head></head></html>");
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toContain("Content-Type header");
  });

  it("passes with an early meta charset or http-equiv", () => {
    expect(judge(charset, '<html><head><meta charset="UTF-8"></head></html>', noHeader).description).toContain(
      "<meta>",
    );
    const equiv = '<html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8"></head></html>';
    expect(judge(charset, equiv, noHeader).status).toBe("pass");
  });

  it("warns with another charset", () => {
    const verdict = judge(charset, "<html></html>", { headers: { "content-type": "text/html; charset=ISO-8859-1" } });
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toContain("iso-8859-1");
  });

  it("fails without a declaration", () => {
    const verdict = judge(charset, "<html><head></head></html>", noHeader);
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toContain("no character encoding");
  });

  it("fails when the meta comes after the first 1,024 bytes", () => {
    const html = `<html><head><!-- ${"é".repeat(600)} --><meta charset="utf-8"></head></html>`;
    const verdict = judge(charset, html, noHeader);
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toContain("after the first 1,024 bytes");
  });
});
