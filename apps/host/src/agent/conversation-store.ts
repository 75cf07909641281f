/**
 * Conversations kept in memory: the model is stateless, so "memory" is this list, resent whole every
 * turn (article, Part 2). Bounded: the least recently used conversation is forgotten past `capacity`, so
 * a long-running host cannot grow without limit; 100 is far more than one learner uses in a workshop.
 */
import { randomUUID } from "node:crypto";
import type { OllamaMessage } from "@hopscope/shared/ollama/schemas";

export class ConversationStore {
  // A Map iterates in insertion order; re-inserting on use makes the first key the least recently used.
  private readonly conversations = new Map<string, OllamaMessage[]>();

  /** Per conversation, the end of the queue of turns waiting to run on it. */
  private readonly queues = new Map<string, Promise<void>>();

  constructor(readonly capacity = 100) {}

  /**
   * Run `turn` after every earlier turn of the same conversation has finished. Two questions sent at
   * once on one conversation would otherwise both start from the same history, and the later write
   * would silently drop the other turn.
   */
  async exclusive<T>(id: string, turn: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(id) ?? Promise.resolve();
    let release!: () => void;
    const done = new Promise<void>((resolve) => (release = resolve));
    // The queue only ever resolves (a turn's own failure goes to its caller), so `previous` cannot reject.
    const tail = previous.then(() => done);
    this.queues.set(id, tail);
    await previous;
    try {
      return await turn();
    } finally {
      release();
      if (this.queues.get(id) === tail) this.queues.delete(id);
    }
  }

  newId(): string {
    return randomUUID();
  }

  /** A copy of the history, so a failed turn leaves the stored one untouched. */
  get(id: string): OllamaMessage[] | undefined {
    const history = this.conversations.get(id);
    if (history === undefined) return undefined;
    this.conversations.delete(id);
    this.conversations.set(id, history);
    return structuredClone(history);
  }

  set(id: string, history: OllamaMessage[]): void {
    this.conversations.delete(id);
    this.conversations.set(id, history);
    while (this.conversations.size > this.capacity) {
      const oldest = this.conversations.keys().next().value as string;
      this.conversations.delete(oldest);
    }
  }

  get size(): number {
    return this.conversations.size;
  }
}
