import { atMost } from "./at-most";

describe("atMost", () => {
  it("never has more than the limit under way and keeps the items' order", async () => {
    let running = 0;
    let most = 0;
    const items = Array.from({ length: 25 }, (_, i) => i);
    const results = await atMost(items, 4, async (item) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, (item * 7) % 5));
      running -= 1;
      return item * 2;
    });
    expect(most).toBe(4);
    expect(results).toEqual(items.map((item) => item * 2));
  });

  it("answers an empty list at once and refuses a limit below one", async () => {
    await expect(atMost([], 3, async () => 1)).resolves.toEqual([]);
    await expect(atMost([1], 0, async () => 1)).rejects.toThrow(RangeError);
  });

  it("stops at the first failure like Promise.all", async () => {
    await expect(
      atMost([1, 2, 3], 2, async (item) => {
        if (item === 2) throw new Error("row 2 failed");
        return item;
      }),
    ).rejects.toThrow("row 2 failed");
  });
});
