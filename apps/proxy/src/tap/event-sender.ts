/**
 * The taps thread's side of the recording thread: tap events are batched (one message every BATCH_MS or
 * BATCH_EVENTS, bytes copied once into a transferred arena) and never waited for.
 *
 * The queue to the recording thread (sent, not yet acknowledged) has a high-water mark: past it the gate
 * closes and the taps stop reading new requests (backpressure, tap/recording-gate.ts) until half of it has
 * drained. Past the hard cap (a recording thread stuck on a locked database while responses keep
 * streaming), new exchanges are forwarded but not recorded, counted and reported (QueueState: health not
 * ok), until half the cap has drained.
 */
import type { MessagePort } from "node:worker_threads";
import type { EventAck, EventBatch, QueueLimits, QueueState, Span, TapEvent } from "../link/protocol";
import { initialQueueState } from "../link/protocol";
import { EventEncoder } from "../link/event-codec";
import type { RecordingGate } from "./recording-gate";

/**
 * Sent to the recording thread and not yet handled: beyond either bound, new exchanges are not recorded.
 * 250,000 events is about 50,000 small exchanges (tens of MB queued), seconds of a saturating burst.
 */
export const QUEUE_LIMITS: QueueLimits = { events: 250_000, bytes: 64 * 1024 * 1024 };
/** Events are sent in batches, at least this often (the live feed lags by as much), or at this many. */
const BATCH_MS = 5;
const BATCH_EVENTS = 2048;
const LAST_NOT_RECORDED = 20;

export class EventSender {
  private readonly events = new EventEncoder();
  private parts: Buffer[] = [];
  private partBytes = 0;
  private timer: NodeJS.Timeout | null = null;
  private batch = 0;
  private readonly unacked = new Map<number, { events: number; bytes: number }>();
  private queuedEvents = 0;
  private queuedBytes = 0;
  private readonly state: QueueState = initialQueueState();

  constructor(
    private readonly port: MessagePort,
    /** Called when the queue state changes (the main thread reports it in /api/health). */
    private readonly onState: (state: QueueState) => void,
    private readonly gate: RecordingGate,
    private readonly limits: QueueLimits = QUEUE_LIMITS,
  ) {
    port.on("message", (msg: EventAck) => this.acked(msg.ack));
  }

  /** False while the recording thread is too far behind: the exchange is then forwarded but not recorded. */
  accepting(): boolean {
    this.checkGate();
    this.checkBehind();
    return this.state.behind === null;
  }

  /** Counts an exchange forwarded but not recorded (not accepted at its start). */
  notRecorded(id: number): void {
    const s = this.state;
    s.notRecorded++;
    s.lastNotRecorded = [...s.lastNotRecorded.slice(1 - LAST_NOT_RECORDED), id];
    s.lastNotRecordedAt = Date.now();
    this.onState({ ...s });
  }

  /** Bytes for an event of the batch being built (copied into the arena when the batch is sent). */
  span(bytes: Buffer): Span {
    const span: Span = [this.partBytes, bytes.length];
    this.parts.push(bytes);
    this.partBytes += bytes.length;
    return span;
  }

  send(event: TapEvent): void {
    this.events.push(event);
    if (this.events.count >= BATCH_EVENTS) this.flush();
    // One message (and one wake-up of the recording thread) per batch, not per event; the bytes went to the
    // client before recording sees them.
    else this.timer ??= setTimeout(() => this.flush(), BATCH_MS);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.events.count === 0) return;
    let arena: ArrayBuffer | null = null;
    if (this.partBytes > 0) {
      arena = new ArrayBuffer(this.partBytes);
      const view = new Uint8Array(arena);
      let offset = 0;
      for (const p of this.parts) {
        view.set(p, offset);
        offset += p.length;
      }
    }
    const batch = ++this.batch;
    const size = { events: this.events.count, bytes: this.partBytes };
    this.unacked.set(batch, size);
    this.queuedEvents += size.events;
    this.queuedBytes += size.bytes;
    const packed = this.events.take();
    const nums = packed.nums.buffer as ArrayBuffer;
    const msg: EventBatch = { batch, ...packed, arena };
    this.parts = [];
    this.partBytes = 0;
    this.port.postMessage(msg, arena ? [arena, nums] : [nums]);
    this.checkGate();
  }

  /**
   * Closes the gate past the high-water mark (counting the batch being built); opens it again when half of
   * that has drained. Checked as each exchange begins and each batch is sent or acknowledged.
   */
  private checkGate(): void {
    const mark = this.pauseAt;
    const events = this.queuedEvents + this.events.count;
    const bytes = this.queuedBytes + this.partBytes;
    if (events >= mark.events || bytes >= mark.bytes) {
      if (this.gate.closed) return;
      this.gate.close();
      this.state.held++;
      this.onState({ ...this.state });
    } else if (events < mark.events / 2 && bytes < mark.bytes / 2) this.gate.open();
  }

  /** The high-water mark: as configured, else a quarter of the hard cap (below it, so nothing is shed). */
  private get pauseAt(): { events: number; bytes: number } {
    return this.limits.pauseAt ?? { events: this.limits.events / 4, bytes: this.limits.bytes / 4 };
  }

  private acked(batch: number): void {
    const size = this.unacked.get(batch);
    this.unacked.delete(batch);
    if (!size) return;
    this.queuedEvents -= size.events;
    this.queuedBytes -= size.bytes;
    if (this.gate.closed) this.checkGate();
    if (this.state.behind !== null) this.checkBehind();
  }

  private checkBehind(): void {
    const { events, bytes } = this.limits;
    const s = this.state;
    // Hysteresis: once behind, recording restarts when half the queue has drained, not at the first slot free.
    if (s.behind !== null && this.queuedEvents < events / 2 && this.queuedBytes < bytes / 2) {
      s.behind = null;
      s.since = null;
      this.onState({ ...s });
    } else if (s.behind === null && (this.queuedEvents >= events || this.queuedBytes >= bytes)) {
      s.behind = `the recorder is behind (${this.queuedEvents} events, ${(this.queuedBytes / 1048576).toFixed(1)} MiB queued): new exchanges are forwarded but not recorded until it catches up`;
      s.since = Date.now();
      this.onState({ ...s });
    }
  }
}
