import { versusPrevious } from "./versus-previous";

const rows = (engine: string, named: number, n: number) =>
  Array.from({ length: n }, (_, i) => ({ engine, brandMentioned: i < named, brandCited: false }));

describe("versusPrevious", () => {
  it("calls 0/12 → 12/12 a change, p = 2 / C(24, 12)", () => {
    const [chatgpt] = versusPrevious(["chatgpt"], rows("chatgpt", 0, 12), rows("chatgpt", 12, 12));
    expect(chatgpt?.mention).toMatchObject({ changed: true, direction: "up" });
    expect(chatgpt?.mention.p_value).toBeCloseTo(2 / 2_704_156, 12);
    expect(chatgpt?.citation).toMatchObject({ changed: false, direction: "flat", p_value: 1 });
  });

  it("calls 5/12 → 7/12 noise, and compares each engine on its own samples", () => {
    const [claude, gemini] = versusPrevious(
      ["claude", "gemini"],
      [...rows("claude", 5, 12), ...rows("gemini", 12, 12)],
      [...rows("claude", 7, 12), ...rows("gemini", 0, 12)],
    );
    expect(claude?.mention).toMatchObject({ changed: false, direction: "flat" });
    expect(claude?.mention.p_value).toBeGreaterThan(0.05);
    expect(claude?.mention.previous).toMatchObject({ successes: 5, n: 12 });
    expect(gemini?.mention).toMatchObject({ changed: true, direction: "down" });
  });
});
