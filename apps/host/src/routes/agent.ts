/**
 * `POST /agent`: one user message in, the reply and every tool call made out (article, Part 4, moments
 * 1 and 8). The conversation is looked up, extended by the loop, and stored again only when the turn
 * finished (or the step guard stopped it after tools ran), so a failed call can simply be retried.
 */
import { JsonLimitError, parseJson } from "@hopscope/shared/json/parse";
import { Hono } from "hono";
import { AgentRequestSchema, type AgentDialect, type AgentResponse } from "@hopscope/shared/agent/schemas";
import type { OllamaMessage } from "@hopscope/shared/ollama/schemas";
import { runAgentTurn, type AgentLoopDeps } from "../agent/agent-loop";
import type { ConversationStore } from "../agent/conversation-store";
import type { ModelClient } from "../agent/ollama-client";
import { HostError, unknownConversation } from "../agent/errors";
import { readBodyCapped } from "@hopscope/nodekit/body";
import { continueOrStartTrace } from "@hopscope/nodekit/trace-ids";
import { formatZodIssues } from "@hopscope/shared/json/zod-error";

export function agentRoutes(
  deps: AgentLoopDeps & { conversations: ConversationStore; clients: Record<AgentDialect, ModelClient> },
): Hono {
  const agent = new Hono();

  agent.post("/", async (c) => {
    const request = AgentRequestSchema.safeParse(await readJson(c.req.raw));
    if (!request.success) {
      throw new HostError(400, `invalid /agent body: ${formatZodIssues(request.error, { whole: "body" })}`);
    }
    const { message, conversationId: given, dialect } = request.data;
    // The history is native whatever the dialect, so a conversation may even change dialect between questions.
    const loop: AgentLoopDeps = dialect ? { ...deps, ollama: deps.clients[dialect] } : deps;
    const trace = continueOrStartTrace(c.req.header("traceparent"));

    const turn = async () => {
      let history: OllamaMessage[] = [];
      if (given !== undefined) {
        const stored = deps.conversations.get(given);
        if (stored === undefined) throw unknownConversation(given);
        history = stored;
      }
      const conversationId = given ?? deps.conversations.newId();
      try {
        const result = await runAgentTurn(loop, history, message, trace);
        deps.conversations.set(conversationId, history);
        const body: AgentResponse = {
          reply: result.reply,
          conversationId,
          steps: result.steps,
          toolCalls: result.toolCalls,
        };
        return body;
      } catch (err) {
        if (err instanceof HostError && err.progress) {
          // The step guard ran tools that changed the world: keep that history so the conversation can go on.
          if (err.status === 422) deps.conversations.set(conversationId, history);
          if (err.status === 422 || given !== undefined) err.progress.conversationId = conversationId;
        }
        throw err;
      }
    };
    return c.json(given === undefined ? await turn() : await deps.conversations.exclusive(given, turn));
  });

  return agent;
}

/** A question is a sentence; a megabyte is already absurd, and the whole body is held in memory. */
const MAX_BODY_BYTES = 1024 * 1024;

async function readJson(req: Request): Promise<unknown> {
  const bytes = await readBodyCapped(req, MAX_BODY_BYTES);
  // The rest of the body is never read: the connection is closed so a keep-alive client does not send
  // its next request into the unread bytes.
  if (bytes === null)
    throw new HostError(413, `invalid /agent body: larger than ${MAX_BODY_BYTES} bytes; send one question`);
  const text = new TextDecoder().decode(bytes);
  if (text.trim() === "") {
    throw new HostError(
      400,
      'invalid /agent body: the body is empty; send JSON such as {"message": "Add buy milk to my notes"}',
    );
  }
  try {
    return parseJson(text);
  } catch (err) {
    if (err instanceof JsonLimitError)
      throw new HostError(400, `invalid /agent body: ${err.message}; send {"message": "…"}`, { cause: err });
    throw new HostError(
      400,
      `invalid /agent body: not JSON (${(err as Error).message}); send {"message": "Add buy milk to my notes"} with Content-Type: application/json`,
      { cause: err },
    );
  }
}
