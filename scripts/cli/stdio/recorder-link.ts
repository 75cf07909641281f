/**
 * The stdio tap's line to the recorder: events are queued and sent in order, in batches, one request at a
 * time, never in the relay's way. A recorder that is not running costs the wrapped server nothing: the
 * tap says so once on stderr, keeps what it could not send (the newest 10,000 events, 64 MiB) and tries
 * again a second later, so a recorder that comes back gets what was kept and everything after (an answer
 * carries its request, so a request asked before is recorded whole). A batch the recorder refuses (400,
 * 413) is split until the message it cannot take stands alone; that one is recorded as "not recordable"
 * with the recorder's reason, and everything after it is recorded as usual.
 */
import { StdioIngestResultSchema, type StdioBatch, type StdioEvent } from "@hopscope/shared/trace/stdio-ingest";
import { RecorderError, call, recorderUrl } from "../api/recorder-client";

/** A send waits this long after the first queued event, so events travel in batches (one HTTP request per
 * message pair would cost a busy session more than the relay itself; 50 ms is not seen on a live timeline). */
const BATCH_DELAY_MS = 50;
/** After a failed send, the next waits this long. */
const RETRY_MS = 1000;
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
  private timer: NodeJS.Timeout | null = null;
  /** No send before this (epoch ms): a recorder that refused the last one is not asked at every message. */
  private retryAt = 0;

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
    this.schedule();
  }

  /** Sends what is queued now (trying a recorder that was down once more); for the end of the session. */
  async flushed(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.sending) await this.sending;
    if (this.queue.length === 0) return;
    this.retryAt = 0;
    this.sending = this.drain();
    await this.sending;
    this.sending = null;
  }

  /**
   * One send at a time, a few ms after the first event (so a busy session goes in few requests and the
   * relay's thread is not spent on HTTP), and no sooner than RETRY_MS after a failed one.
   */
  private schedule(): void {
    if (this.sending || this.timer || this.queue.length === 0) return;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.sending = this.drain().finally(() => {
          this.sending = null;
          this.schedule();
        });
      },
      Math.max(BATCH_DELAY_MS, this.retryAt - Date.now()),
    );
    // The session's end is the server's exit, not this timer.
    this.timer.unref();
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const events = this.take();
      try {
        await this.post(events);
        if (this.down)
          this.say(
            `the recorder at ${recorderUrl()} is back: recording again${this.dropped ? ` (${this.dropped} messages were not recorded)` : ""}`,
          );
        this.down = false;
        this.dropped = 0;
      } catch (err) {
        // Kept (within the queue's bounds) for when the recorder is back.
        this.queue.unshift(...events);
        for (const e of events) this.queuedBytes += sizeOf(e);
        if (!this.down) this.say(`nothing is being recorded: ${(err as Error).message}. The server works as usual.`);
        this.down = true;
        this.retryAt = Date.now() + RETRY_MS;
        return;
      }
    }
  }

  /**
   * Sends events in order. A refused batch is halved and each half sent in turn; a refused single event is
   * sent once more as a "not recordable" line with the reason, and dropped (and said) if even that is refused.
   * A recorder that is down throws, leaving the caller to keep the events.
   */
  private async post(events: StdioEvent[]): Promise<void> {
    const todo: StdioEvent[][] = [events];
    while (todo.length > 0) {
      const batch = todo.shift() as StdioEvent[];
      const refusal = await this.postBatch(batch);
      if (refusal === null) continue;
      if (batch.length > 1) {
        const half = Math.ceil(batch.length / 2);
        todo.unshift(batch.slice(0, half), batch.slice(half));
      } else if (!isPlaceholder(batch[0] as StdioEvent)) {
        todo.unshift([notRecordable(batch[0] as StdioEvent, refusal)]);
      } else {
        this.say(`a message could not be recorded at all (${refusal}); recording goes on`);
      }
    }
  }

  /** Null when the recorder took the batch, its reason when it refused it; throws when it did not answer. */
  private async postBatch(events: StdioEvent[]): Promise<string | null> {
    try {
      await call("/api/ingest/stdio", StdioIngestResultSchema, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ session: this.session, events } satisfies StdioBatch),
      });
      return null;
    } catch (err) {
      if (err instanceof RecorderError && (err.status === 400 || err.status === 413)) return err.message;
      throw err;
    }
  }

  private take(): StdioEvent[] {
    let bytes = 0;
    let n = 0;
    while (n < this.queue.length && (n === 0 || bytes < MAX_BATCH_BYTES))
      bytes += sizeOf(this.queue[n++] as StdioEvent);
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

const PLACEHOLDER_FLAG = "not recordable: ";
/** How much of a refused frame the placeholder keeps, so the timeline shows what it was. */
const PLACEHOLDER_BYTES = 1024;

/** A line standing for an event the recorder refused: where and when it was, its start, and why. */
function notRecordable(e: StdioEvent, reason: string): StdioEvent {
  const frame = e.type === "answered" ? e.request : e.type === "exit" ? null : e.frame;
  const stream = e.type === "exit" ? "stderr" : e.stream;
  const start = frame?.encoding === "utf8" ? frame.data.slice(0, PLACEHOLDER_BYTES) : "";
  return {
    type: "line",
    stream,
    at: e.at,
    frame: { encoding: "utf8", data: start, size: frame?.size ?? 0 },
    flag: `${PLACEHOLDER_FLAG}the recorder refused this message (${reason.slice(0, 1500)})`,
  };
}

function isPlaceholder(e: StdioEvent): boolean {
  return e.type === "line" && (e.flag?.startsWith(PLACEHOLDER_FLAG) ?? false);
}
