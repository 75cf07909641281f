/**
 * The three-shapes view (the article's Part 1.3 on the wire): which model turn it shows, and that turn in
 * Ollama's, OpenAI's and Anthropic's shape as the recorder built it (`GET /api/exchanges/:id/shapes`).
 */
import { createModel, signal } from "@preact/signals";
import { ThreeShapesSchema, type ThreeShapes } from "@hopscope/shared/trace/shapes";
import { getJson } from "../api/http";
import type { Loadable } from "./TraceModel";

export const ShapesModel = createModel(() => {
  const openFor = signal<number | null>(null);
  const data = signal<Loadable<ThreeShapes> | undefined>(undefined);

  async function load(id: number): Promise<void> {
    data.value = { status: "loading" };
    try {
      const value = await getJson(`/api/exchanges/${id}/shapes`, ThreeShapesSchema);
      if (openFor.value === id) data.value = { status: "ready", value };
    } catch (e) {
      if (openFor.value === id) data.value = { status: "error", message: e instanceof Error ? e.message : String(e) };
      console.error("[hopscope] three shapes failed", e);
    }
  }

  function open(id: number): void {
    openFor.value = id;
    void load(id);
  }

  function close(): void {
    openFor.value = null;
    data.value = undefined;
  }

  return { openFor, data, open, close, retry: () => (openFor.value === null ? undefined : void load(openFor.value)) };
});
export type ShapesModel = InstanceType<typeof ShapesModel>;
