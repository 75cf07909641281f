/**
 * model-sim's HTTP app: Ollama's native API and its OpenAI/Anthropic-compatible `/v1` endpoints, one Hono per resource, one error handler that answers
 * the way gin does in Ollama (`{"error": "..."}` with Ollama's status codes). Every response carries
 * `x-hopscope-simulated: 1` so recorders and the UI can badge the stand-in, and `x-hopscope-ollama-version`,
 * the version it imitates, so a recorded exchange keeps its family.
 */
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { guard } from "@hopscope/nodekit/guard";
import { SIMULATED_HEADER, SIMULATED_VERSION_HEADER } from "@hopscope/shared/ollama/schemas";
import { OllamaError } from "./sim/ollama-error";
import { goJsonResponse } from "./sim/respond";
import { chatRoutes } from "./routes/chat";
import { generateRoutes } from "./routes/generate";
import { psRoutes } from "./routes/ps";
import { defaultNumCtx } from "./sim/context-length";
import { rootRoutes } from "./routes/root";
import { showRoutes } from "./routes/show";
import { tagsRoutes } from "./routes/tags";
import { v1Routes } from "./routes/v1";
import { versionRoutes } from "./routes/version";
import type { SimDeps } from "./sim/sim-deps";

export function createApp(deps: SimDeps): Hono {
  const app = new Hono();
  app.use("*", async (c, next) => {
    await next();
    c.res.headers.set(SIMULATED_HEADER, "1");
    c.res.headers.set(SIMULATED_VERSION_HEADER, deps.config.ollamaVersion);
  });
  // Ollama refuses a non-local Host (allowedHostsMiddleware) and a foreign Origin (its CORS middleware)
  // with a bare 403 and no body; it decodes any Content-Type as JSON, so that is not checked here.
  app.use(
    "*",
    guard({ allowedHosts: deps.config.allowedHosts, bindHost: deps.config.host, requireJson: false }, (c) =>
      c.body(null, 403),
    ),
  );
  app.route("/", rootRoutes());
  app.route("/api/chat", chatRoutes(deps));
  app.route("/api/generate", generateRoutes(deps));
  app.route("/api/tags", tagsRoutes(deps.config.builtinRendererModel));
  app.route("/api/show", showRoutes(deps));
  app.route("/api/version", versionRoutes(deps.config.ollamaVersion));
  app.route("/api/ps", psRoutes(deps.state, defaultNumCtx(deps.config.ollamaVersion, deps.config.contextLength)));
  app.route("/v1", v1Routes(deps));

  // gin's default for an unknown route or method.
  app.notFound((c) => c.text("404 page not found", 404));
  app.onError((err, c) => {
    if (err instanceof OllamaError) return goJsonResponse({ error: err.message }, err.status);
    if (err instanceof HTTPException) return err.getResponse();
    // A client that hung up mid-request is not a server fault; Ollama answers 499 "request canceled".
    if (c.req.raw.signal.aborted) return goJsonResponse({ error: "request canceled" }, 499);
    deps.logger.error({ err, path: c.req.path }, "request failed");
    return goJsonResponse({ error: err instanceof Error ? err.message : String(err) }, 500);
  });
  return app;
}
