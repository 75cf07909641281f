/** `GET /api/version`: the version it simulates, plus the field saying it is simulated. */
import { Hono } from "hono";
import { SIMULATED_FIELD } from "@hopscope/shared/ollama/simulated";
import { goJsonResponse } from "../sim/respond";
import { simulatedInfo } from "../sim/simulated-info";

export function versionRoutes(ollamaVersion: string): Hono {
  return new Hono().get("/", () => goJsonResponse({ version: ollamaVersion, [SIMULATED_FIELD]: simulatedInfo() }));
}
