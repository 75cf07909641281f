import { describe, expect, it } from "vitest";
import { parseShareParams } from "../src/share/share-params";

describe("parseShareParams", () => {
  it("reads the hop from ?hop=N or #hop=N (the fragment wins), and ?embed or #embed", () => {
    expect(parseShareParams("?hop=3", "")).toEqual({ hop: 3, embed: false });
    expect(parseShareParams("", "#hop=5")).toEqual({ hop: 5, embed: false });
    expect(parseShareParams("?hop=2", "#hop=7&embed")).toEqual({ hop: 7, embed: true });
    expect(parseShareParams("?embed&hop=4", "")).toEqual({ hop: 4, embed: true });
  });

  it("ignores hops that are not whole numbers from 1, and the timeline's own #/trace route", () => {
    for (const bad of ["?hop=0", "?hop=-1", "?hop=2.5", "?hop=x", "?hop="])
      expect(parseShareParams(bad, "").hop).toBeNull();
    expect(parseShareParams("", "#/trace/abc/hop/3")).toEqual({ hop: null, embed: false });
  });
});
