/**
 * `POST /api/ask {message, conversationId?}`: the UI's question box. Sent to the agent tap (not to the
 * host directly), so it is recorded like any user → host call; the host's answer comes back as is.
 */
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { AskSchema } from "@hopscope/shared/trace/api";
import { jsonBody } from "./errors";

export function askRoutes(deps: { agentTapUrl: string }) {
  return new Hono().post("/", async (c) => {
    const ask = AskSchema.parse(await jsonBody(c));
    let res: Response;
    try {
      res = await fetch(`${deps.agentTapUrl}/agent`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(ask),
      });
    } catch (err) {
      throw new HTTPException(502, {
        message: `the agent tap at ${deps.agentTapUrl} did not answer (${(err as Error).message})`,
        cause: err,
      });
    }
    return new Response(res.body, {
      status: res.status,
      headers: { "content-type": res.headers.get("content-type") ?? "application/json" },
    });
  });
}
