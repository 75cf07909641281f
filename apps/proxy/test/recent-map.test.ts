import { describe, expect, it } from "vitest";
import { RecentMap } from "../src/recent-map";

describe("RecentMap", () => {
  it("keeps at most its bound, forgetting the oldest entry nobody used", () => {
    const m = new RecentMap<number>(3);
    for (const k of ["a", "b", "c", "d"]) m.set(k, k.charCodeAt(0));
    expect(m.size).toBe(3);
    expect(m.get("a")).toBeUndefined();
    expect([m.get("b"), m.get("c"), m.get("d")]).toEqual([98, 99, 100]);
  });

  it("gives an entry used since it was added a second chance", () => {
    const m = new RecentMap<string>(3);
    m.set("a", "A");
    m.set("b", "B");
    m.set("c", "C");
    expect(m.get("a")).toBe("A"); // a is the oldest, but in use
    m.set("d", "D");
    expect(m.get("b")).toBeUndefined();
    expect(m.get("a")).toBe("A");
    expect(m.get("d")).toBe("D");
  });

  it("updates in place, which counts as a use", () => {
    const m = new RecentMap<number>(2);
    m.set("trace-1", 1);
    m.set("trace-2", 1);
    m.set("trace-1", 2);
    m.set("trace-3", 1);
    expect(m.get("trace-1")).toBe(2);
    expect(m.get("trace-2")).toBeUndefined();
  });

  it("forgets one entry per new key even when every entry is in use", () => {
    const m = new RecentMap<number>(3);
    for (const k of ["a", "b", "c"]) m.set(k, 0);
    for (const k of ["a", "b", "c"]) m.get(k);
    m.set("d", 1);
    expect(m.size).toBe(3);
    expect(m.get("d")).toBe(1);
    expect(["a", "b", "c"].filter((k) => m.get(k) === undefined)).toEqual(["a"]);
  });

  it("deletes", () => {
    const m = new RecentMap<number>(2);
    m.set("a", 1);
    m.delete("a");
    expect(m.get("a")).toBeUndefined();
    expect(m.size).toBe(0);
  });
});
