/**
 * The recorder API holds everything the user's agent said and did, and `/api/ask` makes the agent act:
 * the one request guard (@hopscope/nodekit/guard) in front of it, answering in the API's `{ error }` shape.
 */
import type { MiddlewareHandler } from "hono";
import { guard, type GuardPolicy } from "@hopscope/nodekit/guard";

export function localGuard(policy: GuardPolicy): MiddlewareHandler {
  return guard(policy, (c, refusal) => c.json({ error: refusal.message }, refusal.status));
}
