/**
 * The prompt engine as model-sim uses it: render a chat request to the exact qwen2.5 prompt, count and
 * split text into Qwen tokens, write a message as the raw text the model would have generated, and
 * parse raw text back into tool calls the way Ollama does. All of it is the shared prompt engine
 * (@hopscope/shared/prompt, toolcall, tokens): the stand-in generates text, Ollama's own logic does
 * the rest. One seam, so every other module depends on this interface.
 */
import type { OllamaTool } from "@hopscope/shared/ollama/schemas";
import { QWEN25_SYSTEM, QWEN25_TEMPLATE } from "@hopscope/shared/prompt/qwen25";
import { ToolCallParser } from "@hopscope/shared/toolcall/parser";
import { loadQwenTokenizer, type QwenTokenizer } from "@hopscope/shared/tokens/qwen";
import {
  renderChat,
  renderGenerate,
  type ChatRequestLike,
  type GenerateRequestLike,
} from "@hopscope/shared/prompt/render";
import { RenderInputError } from "@hopscope/shared/prompt/tool-decode";
import { DEFAULT_OLLAMA_VERSION } from "@hopscope/shared/prompt/version";
import { OllamaError } from "./ollama-error";

export interface PromptEngine {
  /**
   * The prompt Ollama of `ollamaVersion` would send to the runner for this /api/chat body (pass the raw
   * body when there is one: zod's defaults are not what Go decodes). Bad tool shapes → OllamaError 400.
   */
  render(req: ChatRequestLike, ollamaVersion: string): string;
  /** The same for an /api/generate body (template, system, suffix and raw as Ollama applies them). */
  renderGenerate(req: GenerateRequestLike, ollamaVersion: string): string;
  /** Ollama's tools.Parser for qwen2.5's `<tool_call>` tag, one per response. */
  toolParser(tools: OllamaTool[], ollamaVersion: string): ToolCallParser;
  /** Counts as the llama.cpp of the version the engine was loaded for (`</s>` differs from 0.30). */
  tokenizer: QwenTokenizer;
  /** The qwen2.5 template (1482 bytes) and SYSTEM text (68 bytes) of the library model. */
  template: string;
  system: string;
}

const loading = new Map<string, Promise<PromptEngine>>();

/** Load once per process and version: the tokenizer vocabulary (shared by all versions) is megabytes. */
export function loadPromptEngine(ollamaVersion: string = DEFAULT_OLLAMA_VERSION): Promise<PromptEngine> {
  const hit = loading.get(ollamaVersion);
  if (hit) return hit;
  const engine = loadQwenTokenizer(ollamaVersion).then(
    (tokenizer): PromptEngine => ({
      render: (req, ollamaVersion) => asBadRequest(() => renderChat(req, { ollamaVersion }).text),
      renderGenerate: (req, ollamaVersion) => asBadRequest(() => renderGenerate(req, { ollamaVersion }).text),
      toolParser: (tools, ollamaVersion) => new ToolCallParser(tools, undefined, { ollamaVersion }),
      tokenizer,
      template: QWEN25_TEMPLATE,
      system: QWEN25_SYSTEM,
    }),
    (err: unknown) => {
      loading.delete(ollamaVersion);
      throw err;
    },
  );
  loading.set(ollamaVersion, engine);
  return engine;
}

/** A request Ollama's JSON decoding would refuse is the client's error, answered 400 as Ollama does. */
function asBadRequest<T>(render: () => T): T {
  try {
    return render();
  } catch (err) {
    if (err instanceof RenderInputError) throw new OllamaError(400, err.message);
    throw err;
  }
}
