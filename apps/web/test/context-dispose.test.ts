/**
 * The app context tears each model down exactly once. It runs on the shared-file data source (a real
 * trace file, no recorder); the few browser globals the models touch at start are given plain stand-ins,
 * since this runner is Node.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SHARED_TRACE_FORMAT } from "@hopscope/shared/trace/share";
import { installDataSource } from "../src/api/source";
import { staticSource } from "../src/api/static-source";
import { createAppContext } from "../src/models/app-context";

function browserGlobals(): void {
  const location = { hash: "" };
  const storage = new Map<string, string>();
  vi.stubGlobal("window", new EventTarget());
  vi.stubGlobal("location", location);
  vi.stubGlobal("history", { replaceState: (_s: unknown, _t: string, hash: string) => (location.hash = hash) });
  vi.stubGlobal("document", { documentElement: { dataset: {}, style: { setProperty: () => undefined } } });
  vi.stubGlobal("localStorage", {
    getItem: (k: string) => storage.get(k) ?? null,
    setItem: (k: string, v: string) => storage.set(k, v),
    removeItem: (k: string) => storage.delete(k),
  });
}

afterEach(() => vi.unstubAllGlobals());

describe("createAppContext", () => {
  it("disposes every model once, the connection first", () => {
    browserGlobals();
    const bundle = JSON.parse(readFileSync(new URL("../../../traces/buy-milk.hopscope.json", import.meta.url), "utf8"));
    installDataSource(staticSource({ format: SHARED_TRACE_FORMAT, bundle, views: {} }));
    const ctx = createAppContext("ws://127.0.0.1:9/ws");
    const disposed: string[] = [];
    const models = Object.entries(ctx).filter(([name]) => name !== "dispose");
    for (const [name, model] of models) {
      const dispose = (model as Disposable)[Symbol.dispose].bind(model);
      (model as Disposable)[Symbol.dispose] = () => {
        disposed.push(name);
        dispose();
      };
    }
    ctx.dispose();
    expect(models.length).toBe(11);
    expect([...disposed].sort()).toEqual(models.map(([name]) => name).sort());
    expect(disposed[0]).toBe("connection");
  });
});
