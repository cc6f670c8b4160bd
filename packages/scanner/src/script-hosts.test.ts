import { scriptHostsOf } from "./capture";

const origins = (html: string, base = "https://site.example/dir/page") =>
  scriptHostsOf(html, base).map((url) => `${url.protocol}//${url.host}`);

describe("scriptHostsOf: the hosts a render vets before it starts", () => {
  it("reads the origins of script, iframe and frame sources, once each, resolved against the page", () => {
    const html = `
      <script src="https://cdn.example/a.js"></script>
      <script async src='https://cdn.example/b.js'></script>
      <SCRIPT type="text/javascript" SRC=//ads.example:8080/x.js></SCRIPT>
      <iframe title="t" src="http://frames.example/f.html"></iframe>
      <frame src="/local/frame.html">
      <script src="relative.js"></script>`;
    expect(origins(html)).toEqual([
      "https://cdn.example",
      "https://ads.example:8080",
      "http://frames.example",
      "https://site.example",
    ]);
  });

  it("also reads sources that inline scripts write, and decodes &amp;", () => {
    const html = `<script>document.write('<script src="http://written.example/w.js?a=1&amp;b=2"><\\/script>')</script>`;
    expect(origins(html)).toEqual(["http://written.example"]);
  });

  it("leaves out images, stylesheets, other schemes and sources it cannot read", () => {
    const html = `
      <img src="https://img.example/a.png"><link rel="stylesheet" href="https://css.example/a.css">
      <script src="data:text/javascript,1"></script><iframe src="javascript:void 0"></iframe>
      <script src="http://[bad/x.js"></script><script data-src="https://lazy.example/x.js"></script>`;
    expect(origins(html)).toEqual([]);
  });

  it("stops at 64 hosts, so that a page naming thousands does not flood the resolver", () => {
    const html = Array.from({ length: 200 }, (_, i) => `<script src="https://h${i}.example/x.js"></script>`).join("");
    const hosts = origins(html);
    expect(hosts).toHaveLength(64);
    expect(hosts[0]).toBe("https://h0.example");
  });
});
