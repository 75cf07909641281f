/** `GET /health`: the host is up, and where it sends its calls, so a learner can check the wiring. */
import { Hono } from "hono";
import type { AgentHealth } from "@hopscope/shared/agent/schemas";
import type { Config } from "../config";

export function healthRoutes(config: Config): Hono {
  const health = new Hono();
  health.get("/", (c) => {
    const body: AgentHealth = {
      ok: true,
      model: config.model,
      ollamaUrl: config.ollamaUrl,
      mcpUrl: config.mcpUrl,
      maxSteps: config.maxSteps,
      stream: config.stream,
      lesson: config.lesson,
    };
    return c.json(body);
  });
  return health;
}
