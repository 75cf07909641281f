/** `GET /api/ps`: qwen2.5:7b while it is "loaded" (until its keep_alive runs out), else nothing. */
import { Hono } from "hono";
import { QWEN25_DETAILS, QWEN25_DIGEST, QWEN25_LOADED_SIZE, QWEN25_MODEL } from "@hopscope/shared/ollama/qwen25-facts";
import { goTimeIn } from "../sim/go-time";
import type { ModelState } from "../sim/model-state";
import { goJsonResponse } from "../sim/respond";

/** @param contextLength the window a load without num_ctx gets (./context-length.ts `defaultNumCtx`) */
export function psRoutes(state: ModelState, contextLength: number): Hono {
  return new Hono().get("/", () => {
    const remaining = state.remainingMs();
    const models =
      remaining === null
        ? []
        : [
            // api.ProcessModelResponse field order. A stand-in uses no VRAM, but reports what the real
            // model would so tools reading it behave the same.
            {
              name: QWEN25_MODEL,
              model: QWEN25_MODEL,
              size: QWEN25_LOADED_SIZE,
              digest: QWEN25_DIGEST,
              details: QWEN25_DETAILS,
              expires_at: goTimeIn(remaining),
              size_vram: QWEN25_LOADED_SIZE,
              context_length: contextLength,
            },
          ];
    return goJsonResponse({ models });
  });
}
