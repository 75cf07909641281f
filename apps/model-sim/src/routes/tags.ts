/** `GET /api/tags`: the model the stand-in has "pulled" (and the built-in-renderer model, when it serves one). */
import { Hono } from "hono";
import {
  QWEN25_DETAILS,
  QWEN25_DIGEST,
  QWEN25_MODEL,
  QWEN25_MODIFIED_AT,
  QWEN25_SIZE,
} from "@hopscope/shared/ollama/qwen25-facts";
import { BUILTIN_RENDERER_MODEL as B } from "../sim/builtin-renderer";
import { goJsonResponse } from "../sim/respond";

export function tagsRoutes(builtinRendererModel = false): Hono {
  return new Hono().get("/", () =>
    goJsonResponse({
      models: [
        // api.ListModelResponse field order.
        {
          name: QWEN25_MODEL,
          model: QWEN25_MODEL,
          modified_at: QWEN25_MODIFIED_AT,
          size: QWEN25_SIZE,
          digest: QWEN25_DIGEST,
          details: QWEN25_DETAILS,
        },
        ...(builtinRendererModel
          ? [
              {
                name: B.name,
                model: B.name,
                modified_at: QWEN25_MODIFIED_AT,
                size: B.size,
                digest: B.digest,
                details: B.details,
              },
            ]
          : []),
      ],
    }),
  );
}
