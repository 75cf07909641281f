/** `GET /` and `HEAD /`: Ollama's liveness answer, saying it is the simulated one. */
import { Hono } from "hono";

export const ROOT_TEXT = "Ollama is running (simulated: hopscope model-sim, no real model)";

export function rootRoutes(): Hono {
  // Hono answers HEAD with the GET handler, minus the body, as gin's explicit r.HEAD("/") does.
  return new Hono().get("/", (c) => c.body(ROOT_TEXT, 200, { "content-type": "text/plain; charset=utf-8" }));
}
