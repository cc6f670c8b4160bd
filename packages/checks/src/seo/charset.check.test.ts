import { judge } from "../fixture";
import { charset } from "./charset.check";

const noHeader = { headers: { "content-type": "text/html" } };

// UTF-8 bytes as a browser decodes them under a windows-1252 declaration
const misread = (text: string) => new TextDecoder("windows-1252").decode(new TextEncoder().encode(text));

describe("charset", () => {
  it("fails UTF-8 bytes declared as windows-1252, naming the declaration to change", () => {
    const html = `<html><head><meta charset="windows-1252"><title>T</title></head><body><p>${misread("Le café d’été — “très” réussi.")}</p></body></html>`;
    const verdict = judge(charset, html, noHeader);
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/declares windows-1252 .* but its bytes are UTF-8/);
    expect(verdict.description).toContain('"Ã©" (é)');
    expect(verdict.fix).toBe(
      'Change the declaration <meta charset="windows-1252"> (or its http-equiv Content-Type) to utf-8 (<meta charset="utf-8">); the bytes are UTF-8 already and need no conversion.',
    );
  });

  it("names the Content-Type header when it is the declaration in force", () => {
    const html = `<html><head><title>T</title></head><body><p>${misread("Crème brûlée, à la carte, élégant.")}</p></body></html>`;
    const verdict = judge(charset, html, { headers: { "content-type": "text/html; charset=ISO-8859-1" } });
    expect(verdict.status).toBe("fail");
    expect(verdict.fix).toMatch(/^Change the declaration "Content-Type: text\/html; charset=ISO-8859-1" to utf-8/);
  });

  it("still only warns on a page truly written in windows-1252", () => {
    const html = `<html><head><meta charset="windows-1252"><title>T</title></head><body><p>Le café d’été — “très” réussi, à Noël.</p></body></html>`;
    const verdict = judge(charset, html, noHeader);
    expect(verdict.status).toBe("warn");
    expect(verdict.fix).toMatch(/^Convert the page from windows-1252 to UTF-8/);
  });

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
