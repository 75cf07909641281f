/**
 * The main thread's side of the tokenizer thread (./thread.ts): one worker, started on first use and stopped
 * by `close()`, answering by promise. The worker does not keep the process alive; if it dies, every pending
 * job fails with the reason and the next job starts a new one.
 */
import { Worker } from "node:worker_threads";
import type { PromptFacts } from "@hopscope/shared/dialects/prompt-facts";
import type { FamilyComparison } from "@hopscope/shared/trace/views";
import type {
  FactsInput,
  FamiliesInput,
  FromTokenThread,
  TokenAnswer,
  TokenizerChoice,
  TokenJob,
  TokensJson,
} from "./protocol";
import { MAX_TOKENIZED_CHARS } from "./limits";

const BOOT = new URL("../../link/boot.mjs", import.meta.url);

/** Why a text gets no token counts, or null when it can be tokenised. */
export function tooLargeToTokenise(text: string): string | null {
  if (text.length <= MAX_TOKENIZED_CHARS) return null;
  const mb = (n: number) => `${(n / (1024 * 1024)).toFixed(1)} MB`;
  return `no token counts: this text is ${mb(text.length)}, over the ${mb(MAX_TOKENIZED_CHARS)} the recorder tokenises (seconds per megabyte); the text itself is shown in full`;
}

export class TokenThread {
  private worker: Worker | null = null;
  private next = 1;
  private readonly pending = new Map<number, { resolve: (a: TokenAnswer) => void; reject: (e: Error) => void }>();

  /** The text's tokens, their JSON made on the thread (./protocol.ts TokensJson). */
  async tokens(text: string, choice: TokenizerChoice): Promise<TokensJson> {
    const answer = await this.run({ op: "tokens", text, ...choice });
    if (answer.op !== "tokens") throw new Error(`hopscope bug: the tokenizer thread answered ${answer.op}`);
    return answer.tokens;
  }

  async count(text: string, choice: TokenizerChoice): Promise<number> {
    const answer = await this.run({ op: "count", text, ...choice });
    if (answer.op !== "count") throw new Error(`hopscope bug: the tokenizer thread answered ${answer.op}`);
    return answer.count;
  }

  /** The prompt's budget, truncation and unseen parts (shared/dialects/prompt-facts), counted on the thread. */
  async facts(input: FactsInput, choice: TokenizerChoice): Promise<PromptFacts> {
    const answer = await this.run({ op: "facts", input, choice });
    if (answer.op !== "facts") throw new Error(`hopscope bug: the tokenizer thread answered ${answer.op}`);
    return answer.facts;
  }

  /** The request as each other Ollama family renders it (./family-comparison.ts), rendered and counted on the thread. */
  async families(input: FamiliesInput): Promise<FamilyComparison[]> {
    const answer = await this.run({ op: "families", input });
    if (answer.op !== "families") throw new Error(`hopscope bug: the tokenizer thread answered ${answer.op}`);
    return answer.comparisons;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  private run(job: TokenJob): Promise<TokenAnswer> {
    const worker = this.worker ?? this.start();
    const id = this.next++;
    return new Promise<TokenAnswer>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, job });
    });
  }

  private start(): Worker {
    const worker = new Worker(BOOT, {
      workerData: { entry: "../main/tokens/thread.ts", threadName: "hopscope-tokens" },
    });
    worker.unref();
    worker.on("message", (msg: FromTokenThread) => {
      const waiting = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      if (this.pending.size === 0) worker.unref();
      if (!waiting) return;
      if (msg.ok) waiting.resolve(msg.answer);
      else waiting.reject(new Error(msg.error));
    });
    const fail = (reason: string) => {
      if (this.worker === worker) this.worker = null;
      for (const [, p] of this.pending) p.reject(new Error(`the tokenizer thread stopped: ${reason}`));
      this.pending.clear();
    };
    worker.on("error", (err) => fail(err.message));
    worker.on("exit", (code) => fail(`exit code ${code}`));
    this.worker = worker;
    return worker;
  }
}
