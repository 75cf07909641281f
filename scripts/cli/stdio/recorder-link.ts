/**
 * The stdio tap's line to the recorder: events are queued and sent in order, in batches, one request at a
 * time, never in the relay's way. A recorder that is not running costs the wrapped server nothing: the
 * tap says so once on stderr, drops what it cannot send, and tries again with the next events, so a
 * recorder that comes back gets everything answered after (an answer carries its request).
 */
import { StdioIngestResultSchema, type StdioBatch, type StdioEvent } from "@hopscope/shared/trace/stdio-ingest";
import { call, recorderUrl } from "../recorder-client";

/** Frame bytes per batch: batches stay well under the recorder's limit. */
const MAX_BATCH_BYTES = 8 * 1024 * 1024;
/** Events (and their frame bytes) kept while a send is under way; past either the oldest are dropped (and counted). */
const MAX_QUEUED = 10_000;
const MAX_QUEUED_BYTES = 64 * 1024 * 1024;

export class RecorderLink {
  private queue: StdioEvent[] = [];
  private queuedBytes = 0;
  private sending: Promise<void> | null = null;
  private down = false;
  private dropped = 0;

  constructor(
    private readonly session: StdioBatch["session"],
    private readonly say: (line: string) => void,
  ) {}

  send(events: StdioEvent[]): void {
    if (events.length === 0) return;
    for (const e of events) {
      this.queue.push(e);
      this.queuedBytes += sizeOf(e);
    }
    while (this.queue.length > 1 && (this.queue.length > MAX_QUEUED || this.queuedBytes > MAX_QUEUED_BYTES)) {
      this.queuedBytes -= sizeOf(this.queue.shift() as StdioEvent);
      this.dropped++;
    }
    this.sending ??= this.drain().finally(() => {
      this.sending = null;
    });
  }

  /** Resolves once everything queued has been sent (or given up on); for the end of the session. */
  async flushed(): Promise<void> {
    while (this.sending) await this.sending;
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const events = this.take();
      try {
        await call("/api/ingest/stdio", StdioIngestResultSchema, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ session: this.session, events } satisfies StdioBatch),
        });
        if (this.down) this.say(`the recorder at ${recorderUrl()} is back: recording again${this.dropped ? ` (${this.dropped} messages were not recorded)` : ""}`);
        this.down = false;
        this.dropped = 0;
      } catch (err) {
        this.dropped += events.length;
        if (!this.down) this.say(`nothing is being recorded: ${(err as Error).message}. The server works as usual.`);
        this.down = true;
      }
    }
  }

  private take(): StdioEvent[] {
    let bytes = 0;
    let n = 0;
    while (n < this.queue.length && (n === 0 || bytes < MAX_BATCH_BYTES)) bytes += sizeOf(this.queue[n++] as StdioEvent);
    this.queuedBytes -= bytes;
    return this.queue.splice(0, n);
  }
}

function sizeOf(e: StdioEvent): number {
  switch (e.type) {
    case "request":
    case "line":
      return e.frame.data.length;
    case "answered":
      return e.request.data.length + (e.answer?.data.length ?? 0);
    case "exit":
      return 0;
  }
}
