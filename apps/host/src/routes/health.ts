/** `GET /health`: the host is up, and where it sends its calls, so a learner can check the wiring. */
import { Hono } from "hono";
import type { AgentHealth } from "@hopscope/shared/agent/schemas";

/** `wiring`: what the host was configured with (app.ts takes it from the config). */
export function healthRoutes(wiring: Omit<AgentHealth, "ok">): Hono {
  const health = new Hono();
  health.get("/", (c) => c.json({ ok: true, ...wiring } satisfies AgentHealth));
  return health;
}
