/**
 * chatPrompt's truncation (server/prompt.go) picks the first start, from the front, whose prompt fits. The
 * stand-in searches from the end instead, so a long conversation is not rendered once per message. Here both
 * are run on the same conversations (system messages in the middle, same-role runs that Ollama's template
 * merges, tool calls and results, a system message sent last) at every window size from a prompt that fits
 * nothing to one that fits everything, and must keep the same messages and render the same prompt.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { OllamaMessage } from "@hopscope/shared/ollama/schemas";
import { loadPromptEngine, type PromptEngine } from "../src/sim/engine";
import { fitPrompt } from "../src/sim/truncate-prompt";
import { NOTES_TOOLS, assistantCall, toolResult, user } from "./helpers";

const VERSION = "0.32.15";
let engine: PromptEngine;
beforeAll(async () => {
  engine = await loadPromptEngine(VERSION);
});

/** server/prompt.go chatPrompt's loop as written: i = 0, 1, …; the first that fits, or the last message. */
function frontToBack(body: Record<string, unknown>, messages: OllamaMessage[], limit: number) {
  const all = messages[0]?.role === "system" ? messages : [{ role: "system", content: engine.system }, ...messages];
  for (let i = 0; ; i++) {
    const kept = all.filter((m, j) => j >= i || m.role === "system");
    const text = engine.render({ ...body, messages: kept } as never, VERSION);
    if (engine.tokenizer.count(text) <= limit || i >= all.length - 1) return { text, kept: kept.length };
  }
}

const system = (content: string): OllamaMessage => ({ role: "system", content });
const assistant = (content: string): OllamaMessage => ({ role: "assistant", content });
const para = (n: number) => `Paragraph ${n}: ${"the notes file keeps what was said, ".repeat(1 + (n % 5))}`;

const CONVERSATIONS: Record<string, OllamaMessage[]> = {
  "user and assistant turns": Array.from({ length: 10 }, (_, k) => (k % 2 ? assistant(para(k)) : user(para(k)))),
  "system messages in the middle and last": [
    user(para(1)),
    system("Reminder: be brief."),
    assistant(para(2)),
    user(para(3)),
    system(para(4)),
    user(para(5)),
    assistant(para(6)),
    system("Reminder: the notes server is connected."),
  ],
  "same-role runs merged by the template": [
    system(para(0)),
    user(para(1)),
    user(para(2)),
    user(para(3)),
    assistant(para(4)),
    assistant(para(5)),
    user(" 's leading space and a contraction"),
    user("</s> and <|im_end|> spelled in the text"),
  ],
  "tool calls and results": [
    user("Add milk to my notes, then read them."),
    assistantCall("append", { content: "milk" }),
    toolResult("append", "ok"),
    assistantCall("read", {}),
    toolResult("read", `milk\n${para(7)}`),
    assistant(para(8)),
    user("And eggs."),
  ],
};

describe("the search for the first start that fits", () => {
  for (const [name, messages] of Object.entries(CONVERSATIONS)) {
    it(`keeps what the front-to-back loop keeps: ${name}`, () => {
      const body = { model: "qwen2.5:7b", messages, tools: NOTES_TOOLS };
      const everything = engine.tokenizer.count(engine.render(body as never, VERSION));
      const sizes = new Set<number>();
      const step = Math.max(3, Math.floor(everything / 40));
      for (let limit = 4; limit <= everything + step; limit += step) {
        const fitted = fitPrompt({ ...body, options: { num_ctx: limit } }, messages, engine, VERSION, 0);
        const expected = frontToBack(body, messages, limit);
        expect({ limit, kept: fitted.messages.length, text: fitted.text }).toEqual({ limit, ...expected });
        expect(fitted.tokenCount).toBe(engine.tokenizer.count(expected.text));
        sizes.add(fitted.messages.length);
      }
      // The sizes tried cut the conversation at many places, not only "everything" and "the last message".
      expect(sizes.size).toBeGreaterThan(3);
    });
  }
});
