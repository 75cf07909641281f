/**
 * Decides which model server to use: a real Ollama when one answers at OLLAMA_URL and has the model pulled,
 * otherwise the stand-in — and says why, in words a learner can act on.
 */
import { TagsResponseSchema, VersionResponseSchema, SIMULATED_HEADER } from "@hopscope/shared/ollama/schemas";
import type { LauncherConfig } from "./config";

export type ModelChoice =
  { kind: "ollama"; url: string; version: string; reason: string } | { kind: "sim"; reason: string };

async function getJson(url: string, timeoutMs: number): Promise<{ res: Response; body: unknown }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  return { res, body: await res.json() };
}

export async function chooseModel(config: LauncherConfig): Promise<ModelChoice> {
  if (config.HOPSCOPE_MODEL === "sim") return { kind: "sim", reason: "HOPSCOPE_MODEL=sim" };
  const base = config.OLLAMA_URL.replace(/\/+$/, "");
  let version: string;
  try {
    const { res, body } = await getJson(`${base}/api/version`, 1500);
    if (res.headers.get(SIMULATED_HEADER)) {
      return { kind: "sim", reason: `${base} is a hopscope stand-in, not a real Ollama` };
    }
    version = VersionResponseSchema.parse(body).version;
  } catch (err) {
    const reason = `no Ollama answers at ${base} (${err instanceof Error ? err.message : String(err)})`;
    if (config.HOPSCOPE_MODEL === "ollama")
      throw new Error(`${reason}: start Ollama, or unset HOPSCOPE_MODEL to use the stand-in`);
    return { kind: "sim", reason };
  }
  const { body } = await getJson(`${base}/api/tags`, 3000);
  const tags = TagsResponseSchema.parse(body);
  const wanted = config.OLLAMA_MODEL.includes(":") ? config.OLLAMA_MODEL : `${config.OLLAMA_MODEL}:latest`;
  if (!tags.models.some((m) => m.name === wanted || m.model === wanted)) {
    const reason = `Ollama ${version} at ${base} does not have ${config.OLLAMA_MODEL}: run \`ollama pull ${config.OLLAMA_MODEL}\` (about 4.7 GB), then npm start again`;
    if (config.HOPSCOPE_MODEL === "ollama") throw new Error(reason);
    return { kind: "sim", reason };
  }
  return { kind: "ollama", url: base, version, reason: `Ollama ${version} at ${base} has ${config.OLLAMA_MODEL}` };
}
