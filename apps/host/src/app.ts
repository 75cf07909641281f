/**
 * The host's HTTP app: `POST /agent` and `GET /health`, composed from one Hono per resource, with the
 * one place errors become responses. Tests and main.ts both build it through server.ts's start().
 */
import { staleToolsFor } from "./agent/stale-tools";
import { Hono } from "hono";
import type { AgentError } from "@hopscope/shared/agent/schemas";
import type { Config } from "./config";
import { ConversationStore } from "./agent/conversation-store";
import { HostError } from "./agent/errors";
import { guard } from "@hopscope/nodekit/guard";
import { silentLogger, type Logger } from "@hopscope/nodekit/logger";
import { McpClient } from "./agent/mcp-client";
import type { AgentDialect } from "@hopscope/shared/agent/schemas";
import { DialectClient } from "./agent/dialect-client";
import { OllamaClient, type ModelClient } from "./agent/ollama-client";
import { agentRoutes } from "./routes/agent";
import { healthRoutes } from "./routes/health";

export interface AppDeps {
  config: Config;
  conversations?: ConversationStore;
  logger?: Logger;
  /** The fetch used for every outgoing call (model and MCP); defaults to the global one. */
  fetch?: typeof fetch;
}

export function createApp(deps: AppDeps): Hono {
  const { config } = deps;
  const logger = deps.logger ?? silentLogger;
  const native = new OllamaClient({
    url: config.ollamaUrl,
    model: config.model,
    keepAlive: config.keepAlive,
    stream: config.stream,
    lesson: config.lesson,
    fetch: deps.fetch,
  });
  // The same model server in each dialect it serves; AGENT_DIALECT picks the default, a question may pick another.
  const inDialect = (dialect: "openai" | "anthropic") =>
    new DialectClient({
      dialect,
      url: config.ollamaUrl,
      model: config.model,
      stream: config.stream,
      lesson: config.lesson,
      fetch: deps.fetch,
    });
  const clients: Record<AgentDialect, ModelClient> = {
    ollama: native,
    openai: inDialect("openai"),
    anthropic: inDialect("anthropic"),
  };
  const ollama = clients[config.dialect];
  const mcp = new McpClient({
    url: config.mcpUrl,
    fetch: deps.fetch,
    // The spec says drop such a tool; the log says why the model never sees it.
    onDroppedTool: (name, reason) => logger.error({ tool: name, reason }, `tools/list: dropped tool "${name}"`),
  });
  const conversations = deps.conversations ?? new ConversationStore();

  const app = new Hono();
  // A web page must not make the agent act (it writes the learner's notes): the one guard, before any route.
  app.use(
    "*",
    guard({ allowedHosts: config.allowedHosts, bindHost: config.host }, (c, refusal) =>
      c.json({ error: refusal.message } satisfies AgentError, refusal.status),
    ),
  );
  app.route(
    "/agent",
    agentRoutes({
      ollama,
      clients,
      mcp,
      maxSteps: config.maxSteps,
      staleTools: staleToolsFor(config.lesson),
      conversations,
    }),
  );
  const { model, ollamaUrl, mcpUrl, maxSteps, stream, lesson } = config;
  app.route("/health", healthRoutes({ model, ollamaUrl, mcpUrl, maxSteps, stream, lesson }));

  app.notFound((c) => {
    const body: AgentError = {
      error: `no route ${c.req.method} ${new URL(c.req.url).pathname}: the host serves POST /agent and GET /health`,
    };
    return c.json(body, 404);
  });

  app.onError((err, c) => {
    if (err instanceof HostError) {
      // A 413's body is left unread on the socket: no keep-alive reuse of that connection.
      if (err.status === 413) c.header("connection", "close");
      if (err.status >= 500) logger.error({ status: err.status }, `${c.req.method} ${c.req.path}: ${err.message}`);
      const body: AgentError = { error: err.message, ...err.progress };
      return c.json(body, err.status);
    }
    logger.error({ err }, `${c.req.method} ${c.req.path} failed`);
    const body: AgentError = { error: `internal error in the host: ${err.message} (see the host's log)` };
    return c.json(body, 500);
  });

  return app;
}
