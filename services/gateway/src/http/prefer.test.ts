import { parsePrefer } from "./prefer";

describe("parsePrefer", () => {
  it("finds respond-async in any spelling and position", () => {
    expect(parsePrefer("respond-async").has("respond-async")).toBe(true);
    expect(parsePrefer("Respond-Async").has("respond-async")).toBe(true);
    expect(parsePrefer("wait=10, respond-async").has("respond-async")).toBe(true);
    expect(parsePrefer(["return=minimal", "respond-async; foo=bar"]).has("respond-async")).toBe(true);
  });

  it("reads values, first one wins", () => {
    const prefer = parsePrefer('wait=10, return="minimal", wait=20');
    expect(prefer.get("wait")).toBe("10");
    expect(prefer.get("return")).toBe("minimal");
  });

  it("finds nothing in an absent, empty or unrelated header", () => {
    expect(parsePrefer(undefined).size).toBe(0);
    expect(parsePrefer(" , ").size).toBe(0);
    expect(parsePrefer("respond-asynchronously").has("respond-async")).toBe(false);
  });
});
