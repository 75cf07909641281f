import { describe, expect, it } from "vitest";
import { InFlightMap } from "../src/recording/in-flight-map";

describe("InFlightMap", () => {
  it("gets, sets and deletes like a Map", () => {
    const m = new InFlightMap<string>();
    m.set(1, "one");
    m.set(2, "two");
    m.delete(1);
    m.delete(1);
    m.delete(99);
    expect([m.get(1), m.get(2), m.size]).toEqual([undefined, "two", 1]);
    m.set(3, "three");
    m.set(1, "again");
    expect([m.get(1), m.size, [...m.values()].sort()]).toEqual(["again", 3, ["again", "three", "two"]]);
  });

  it("keeps what is in flight across compactions, thousands of exchanges later", () => {
    const m = new InFlightMap<number>();
    m.set(0, 0); // a long stream, in flight throughout
    for (let id = 1; id <= 10_000; id++) {
      m.set(id, id);
      if (id > 16) m.delete(id - 16); // about 16 in flight at once
    }
    expect(m.size).toBe(17);
    expect(m.get(0)).toBe(0);
    expect(m.get(9_984)).toBeUndefined();
    expect(m.get(9_985)).toBe(9_985);
    expect([...m.values()]).toEqual([0, ...Array.from({ length: 16 }, (_, i) => 9_985 + i)]);
  });
});
