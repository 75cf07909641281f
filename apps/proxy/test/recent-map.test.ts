import { describe, expect, it } from "vitest";
import { RecentMap } from "../src/recording/recent-map";

describe("RecentMap", () => {
  it("keeps at most its bound, forgetting the oldest key", () => {
    const m = new RecentMap<number>(3);
    for (const k of ["a", "b", "c", "d"]) m.set(k, k.charCodeAt(0));
    expect(m.size).toBe(3);
    expect(m.get("a")).toBeUndefined();
    expect([m.get("b"), m.get("c"), m.get("d")]).toEqual([98, 99, 100]);
  });

  it("never forgets a key in use, however many keys come and go", () => {
    const m = new RecentMap<number>(10);
    m.set("session", 0);
    for (let i = 1; i <= 1000; i++) {
      m.set(`single-${i}`, i);
      if (i % 4 === 0) m.set("session", (m.get("session") ?? -1000) + 1); // used every 4th new key
    }
    expect(m.get("session")).toBe(250);
    expect(m.size).toBe(10);
    expect(m.get("single-1000")).toBe(1000);
  });

  it("forgets a key nobody used for a whole bound's worth of new keys", () => {
    const m = new RecentMap<number>(4);
    m.set("old", 1);
    m.get("old");
    for (const k of ["b", "c", "d", "e"]) m.set(k, 0);
    expect(m.get("old")).toBeUndefined();
  });

  it("updates in place", () => {
    const m = new RecentMap<number>(2);
    m.set("trace-1", 1);
    m.set("trace-1", 2);
    expect([m.get("trace-1"), m.size]).toEqual([2, 1]);
  });

  it("forgets in order of last use when keys are deleted and set again", () => {
    const m = new RecentMap<number>(3);
    for (const k of ["a", "b", "c"]) m.set(k, 0);
    m.delete("a");
    m.set("a", 1); // newest now: b is the oldest
    m.set("d", 0);
    expect([m.get("b"), m.get("a"), m.get("c"), m.get("d")]).toEqual([undefined, 1, 0, 0]);
  });

  it("keeps its order queue about as small as the map, however often keys below the bound are used", () => {
    const m = new RecentMap<number>(2000);
    for (let i = 0; i < 300_000; i++) m.set(`k${i % 1500}`, i);
    expect(m.size).toBe(1500);
    const inner = m as unknown as { queue: string[]; head: number };
    expect(inner.queue.length - inner.head).toBeLessThanOrEqual(2 * 1500 + 64);
    // Past the bound the oldest goes, and only it.
    for (let i = 0; i < 600; i++) m.set(`new${i}`, i);
    expect(m.size).toBe(2000);
    expect(m.get("new0")).toBe(0);
  });

  it("deletes", () => {
    const m = new RecentMap<number>(2);
    m.set("a", 1);
    m.delete("a");
    expect([m.get("a"), m.size]).toEqual([undefined, 0]);
  });
});
