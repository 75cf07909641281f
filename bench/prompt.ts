/**
 * The prompt engine per call, side by side in one process: hopscope's `renderChat` (Ollama's Go template
 * semantics) against `@huggingface/jinja` rendering Qwen2.5's Hugging Face chat template, both followed by
 * the same Qwen2.5 tokenizer. Batches alternate A B A B and the median batch is reported, so drift (other
 * work on a shared 2-core box, GC) lands on both sides.
 *
 * Inputs are the repository's copies (shared/test/prompt/fixtures): the article's first request (one user
 * turn, five notes tools), its second (assistant tool call + tool result) and a generated 30-message,
 * 5-tool conversation. The two renderers disagree on a few bytes by design (tool JSON spacing and key
 * order, see shared/test/prompt/hf-crosscheck.test.ts), so each side's token count is reported.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Template } from "@huggingface/jinja";
import { renderChat } from "@hopscope/shared/prompt/render";
import { loadQwenTokenizer } from "@hopscope/shared/tokens/qwen";
import { median } from "./measure";
import type { PromptBench, PromptCase } from "./results";

const FIXTURES = join(import.meta.dirname, "..", "shared", "test", "prompt", "fixtures");
const BATCHES = 15;
/** Each batch runs for about this long, so timer resolution does not matter. */
const BATCH_MS = 60;

/** A type alias (not an interface) so it is assignable to renderChat's raw-body `Record<string, unknown>`. */
type ChatBody = {
  model: string;
  messages: Record<string, unknown>[];
  tools: unknown[];
};

const readJson = (file: string): unknown => JSON.parse(readFileSync(join(FIXTURES, file), "utf8"));

/** 30 messages using all five notes tools: system, seven user → call → result → answer turns, a last user turn. */
export function longConversation(tools: unknown[]): ChatBody {
  const calls: [string, Record<string, unknown>, string][] = [
    ["append", { content: "buy milk" }, "Success"],
    ["read", {}, "buy milk\nbuy eggs\ncall the plumber about the kitchen sink"],
    ["update", { search: "eggs", replace: "oat milk" }, "Success"],
    ["append", { content: "book the dentist for next Tuesday, 9:30" }, "Success"],
    ["write", { content: "groceries: bread, butter, coffee\nchores: laundry" }, "Success"],
    ["read", {}, "groceries: bread, butter, coffee\nchores: laundry"],
    ["clear", {}, "Success"],
  ];
  const messages: Record<string, unknown>[] = [
    { role: "system", content: "You manage a notes file. Use the tools; answer in one short sentence." },
  ];
  calls.forEach(([name, args, result], i) => {
    messages.push({ role: "user", content: `Step ${i + 1}: please ${name} ${JSON.stringify(args)} in my notes` });
    messages.push({ role: "assistant", content: "", tool_calls: [{ function: { name, arguments: args } }] });
    messages.push({ role: "tool", content: result, tool_name: name });
    messages.push({ role: "assistant", content: `Done: ${name} went through. Anything else for the notes?` });
  });
  messages.push({ role: "user", content: "What is in my notes now?" });
  return { model: "qwen2.5:7b", messages, tools };
}

/** The µs per call of one batch of `fn`. */
function batch(fn: () => unknown): number {
  let n = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < BATCH_MS) {
    fn();
    fn();
    fn();
    fn();
    n += 4;
    t = performance.now();
  }
  return ((t - t0) * 1000) / n;
}

/** Median µs per call of a and b, their batches interleaved A B A B. */
function abMedians(a: () => unknown, b: () => unknown): [number, number] {
  batch(a);
  batch(b); // warm-up: JIT and caches (the template parse is cached on both sides)
  const as: number[] = [];
  const bs: number[] = [];
  for (let i = 0; i < BATCHES; i++) {
    as.push(batch(a));
    bs.push(batch(b));
  }
  return [median(as), median(bs)];
}

export async function runPromptBench(log: (s: string) => void): Promise<PromptBench> {
  const tLoad = performance.now();
  const tokenizer = await loadQwenTokenizer();
  const tokenizerLoadMs = performance.now() - tLoad;
  const hf = new Template(readFileSync(join(FIXTURES, "hf_chat_template.jinja"), "utf8"));
  const renderHf = (req: ChatBody) =>
    hf.render({ messages: req.messages, tools: req.tools, add_generation_prompt: true });
  const tools = readJson("notes-tools.json") as unknown[];
  const inputs: [string, ChatBody][] = [
    ["article turn 1 (1 message, 5 tools)", readJson("requests/article-turn1.json") as ChatBody],
    ["article turn 2 (call + result, 5 tools)", readJson("requests/article-turn2.json") as ChatBody],
    ["30 messages, 5 tools", longConversation(tools)],
  ];
  // Warm-up over every input first (about a second): the tokenizer's and both renderers' code paths JIT-compiled
  // before the first case is timed, so the first case is not penalised.
  const tWarm = performance.now();
  while (performance.now() - tWarm < 1000)
    for (const [, req] of inputs) {
      tokenizer.encode(renderChat(req).text);
      tokenizer.encode(renderHf(req));
    }
  const cases: PromptCase[] = [];
  for (const [name, req] of inputs) {
    log(`bench: prompt: ${name}`);
    const oursText = renderChat(req).text;
    const hfText = renderHf(req);
    const [ourRender, hfRender] = abMedians(
      () => renderChat(req),
      () => renderHf(req),
    );
    const [ourFull, hfFull] = abMedians(
      () => tokenizer.encode(renderChat(req).text),
      () => tokenizer.encode(renderHf(req)),
    );
    cases.push({
      name,
      messages: req.messages.length,
      hopscopeMicros: ourFull,
      baselineMicros: hfFull,
      baselineName: "@huggingface/jinja + HF template",
      ratio: hfFull / ourFull,
      hopscopeRenderMicros: ourRender,
      baselineRenderMicros: hfRender,
      renderRatio: hfRender / ourRender,
      tokens: tokenizer.count(oursText),
      baselineTokens: tokenizer.count(hfText),
      promptChars: oursText.length,
    });
  }
  return { tokenizerLoadMs, batches: BATCHES, cases };
}
