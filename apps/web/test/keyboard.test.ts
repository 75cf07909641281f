import { describe, expect, it } from "vitest";
import { SHORTCUTS, readOnlyShortcuts, type Shortcut } from "../src/models/keyboard";

const keysOf = (table: Shortcut[]) => table.flatMap((s) => s.keys);

describe("the keys of a read-only page", () => {
  it("leave out those of controls only the live UI has (ask, follow live, the trace list)", () => {
    const table = readOnlyShortcuts();
    for (const k of ["a", "l", "[", "]"]) expect(keysOf(table)).not.toContain(k);
    // Everything that works on a read-only page stays: stepping, replay, presenter mode, theme, help.
    for (const k of ["j", "k", "r", " ", "p", "t", "?", "Escape"]) expect(keysOf(table)).toContain(k);
    expect(table.length).toBe(SHORTCUTS.length - 4);
  });

  it("put the page's own keys first, so they are found (and listed) before the rest, each key once", () => {
    const own: Shortcut = { keys: ["F"], label: "Follow the speaker again", run: () => undefined };
    const table = readOnlyShortcuts([own]);
    expect(table[0]).toBe(own);
    const all = keysOf(table);
    expect(new Set(all).size).toBe(all.length);
  });
});
