/**
 * `hopscope render [--ollama-version V] [--tokens] [--json]`: read an `/api/chat` request body on stdin and
 * print the exact prompt Ollama would send to qwen2.5 (shared/src/prompt/render.ts does the work).
 *
 * Text mode writes the prompt byte for byte, with no newline added, so `render < req.json > prompt.txt`
 * can be byte-compared with Ollama's own `_debug_render_only` output; `--tokens` then goes to stderr.
 * Exit codes: 0 rendered, 2 bad input or options (the message says what and how to fix it).
 */
import { ChatRequestSchema } from "@hopscope/shared/ollama/schemas";
import { renderChat } from "@hopscope/shared/prompt/render";
import { DEFAULT_OLLAMA_VERSION, OLLAMA_FAMILIES, familyOf } from "@hopscope/shared/prompt/version";
import { loadQwenTokenizer } from "@hopscope/shared/tokens/qwen";
import type { z } from "zod";
import { formatZodIssues } from "@hopscope/shared/json/zod-error";

const USAGE = `usage: npm run -s hopscope -- render [--ollama-version V] [--tokens] [--json] < request.json

Reads an Ollama /api/chat request body on stdin and prints the prompt qwen2.5 receives.
  --ollama-version V  render as Ollama V does: any version, mapped to its family (default ${DEFAULT_OLLAMA_VERSION})
${OLLAMA_FAMILIES.map((f) => `                        ${f.releases.padEnd(13)} ${f.what}`).join("\n")}
  --tokens            count the prompt's Qwen2.5 tokens as that version's llama.cpp does (= prompt_eval_count);
                      on stderr in text mode
  --json              print {text, segments, tokenCount?, ollamaVersion, family, toolFormat, notes} instead
`;

const VERSION = /^v?\d+\.\d+(\.\d+)?(-[0-9A-Za-z.-]+)?$/;

interface Options {
  ollamaVersion?: string;
  tokens: boolean;
  json: boolean;
}

/** A user mistake: printed as is, exit code 2. */
class UsageError extends Error {}

function parseArgs(args: string[]): Options | "help" {
  const options: Options = { tokens: false, json: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--help" || arg === "-h") return "help";
    if (arg === "--tokens") options.tokens = true;
    else if (arg === "--json") options.json = true;
    else if (arg === "--ollama-version" || arg.startsWith("--ollama-version=")) {
      const value = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : args[++i];
      if (value === undefined || !VERSION.test(value)) {
        throw new UsageError(
          `--ollama-version expects a version such as 0.32.15, 0.14.0 or 0.13.5 (what GET /api/version reports), got ${value === undefined ? "nothing" : JSON.stringify(value)}`,
        );
      }
      options.ollamaVersion = value.replace(/^v/, "");
    } else throw new UsageError(`unknown option ${JSON.stringify(arg)}`);
  }
  return options;
}

function formatIssues(error: z.ZodError): string {
  // zod calls a JSON object with any keys a "record"; say it the way the Ollama docs do.
  return formatZodIssues(error, { whole: "the body", separator: "\n", indent: "  " }).replaceAll(
    "expected record",
    "expected a JSON object",
  );
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) {
    throw new UsageError(
      "pipe an /api/chat request body into stdin, for example: npm run -s hopscope -- render < request.json",
    );
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function render(options: Options): Promise<void> {
  const input = await readStdin();
  if (input.trim() === "") throw new UsageError("stdin is empty: expected an /api/chat request body (JSON)");
  let body: unknown;
  try {
    body = JSON.parse(input);
  } catch (err) {
    throw new UsageError(`stdin is not valid JSON: ${(err as Error).message}`);
  }
  const parsed = ChatRequestSchema.safeParse(body);
  if (!parsed.success) {
    throw new UsageError(`the request body is not a valid /api/chat request:\n${formatIssues(parsed.error)}`);
  }
  const result = renderChat(parsed.data, { ollamaVersion: options.ollamaVersion ?? DEFAULT_OLLAMA_VERSION });
  const family = familyOf(result.ollamaVersion);
  const tokenCount = options.tokens ? (await loadQwenTokenizer(result.ollamaVersion)).count(result.text) : undefined;
  if (options.json) {
    const { text, segments, ollamaVersion, toolFormat, notes } = result;
    process.stdout.write(
      `${JSON.stringify({ text, segments, tokenCount, ollamaVersion, family: family.id, toolFormat, notes }, null, 2)}\n`,
    );
    return;
  }
  process.stdout.write(result.text);
  if (tokenCount !== undefined) {
    process.stderr.write(
      `${tokenCount} tokens (Qwen2.5, no BOS: what Ollama reports as prompt_eval_count) — Ollama ${result.ollamaVersion}, family ${family.label}\n`,
    );
  }
}

export async function run(args: string[]): Promise<number> {
  try {
    const options = parseArgs(args);
    if (options === "help") {
      process.stdout.write(USAGE);
      return 0;
    }
    await render(options);
    return 0;
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`hopscope render: ${err.message}\n`);
    return 2;
  }
}
