import { describe, expect, it } from "vitest";
import { ConversationStore } from "../src/agent/conversation-store";

describe("ConversationStore", () => {
  it("returns a copy, so a failed turn cannot change the stored history", () => {
    const store = new ConversationStore();
    store.set("a", [{ role: "user", content: "hi" }]);
    const copy = store.get("a")!;
    copy.push({ role: "assistant", content: "hello" });
    expect(store.get("a")).toEqual([{ role: "user", content: "hi" }]);
  });

  it("forgets the least recently used conversation past its capacity", () => {
    const store = new ConversationStore(2);
    store.set("a", []);
    store.set("b", []);
    store.get("a"); // a is now more recent than b
    store.set("c", []);
    expect(store.get("b")).toBeUndefined();
    expect(store.get("a")).toEqual([]);
    expect(store.get("c")).toEqual([]);
    expect(store.size).toBe(2);
  });

  it("mints distinct ids", () => {
    const store = new ConversationStore();
    expect(store.newId()).not.toBe(store.newId());
  });
});

describe("ConversationStore.exclusive", () => {
  it("runs turns of one conversation one after another, even when one fails", async () => {
    const store = new ConversationStore();
    const order: string[] = [];
    let releaseFirst!: () => void;
    const first = store.exclusive("a", async () => {
      order.push("first:start");
      await new Promise<void>((r) => (releaseFirst = r));
      order.push("first:end");
      throw new Error("first failed");
    });
    const second = store.exclusive("a", async () => {
      order.push("second");
      return 2;
    });
    const other = store.exclusive("b", async () => {
      order.push("other");
      return 3;
    });
    await other;
    // The other conversation did not wait; the second turn of "a" did.
    expect(order).toEqual(["first:start", "other"]);
    releaseFirst();
    await expect(first).rejects.toThrow("first failed");
    expect(await second).toBe(2);
    expect(order).toEqual(["first:start", "other", "first:end", "second"]);
  });
});
