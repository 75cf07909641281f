/**
 * One audience session: its join code, the presenter's last position, the traces the presenter has
 * shown (the only ones a viewer may read), and the viewers' sockets. `end()` disconnects every viewer
 * and retires the code; `restart()` opens a new session with a new code.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { WebSocket } from "ws";
import type { AudienceServerFrame, PresenterPosition } from "@hopscope/shared/trace/audience";
import type { AnyEvent, FeedEvent } from "../../link/frames";
import { redactedSummary } from "../export/redacted-exchange";
import { WrongCodeGuard } from "./code-guard";

/** 10 characters of an alphabet without look-alikes (no 0/O, 1/l/I): ~50 bits, typeable from a slide. */
const ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz";

export function newJoinCode(): string {
  const bytes = randomBytes(10);
  return Array.from(bytes, (b) => ALPHABET[b % ALPHABET.length]).join("");
}

type AudienceLiveFrame = Extract<AudienceServerFrame, { type: "live" }>["frame"];

/** Socket close code a viewer sees when the presenter ends the session. */
export const ENDED_CLOSE_CODE = 4001;

export class AudienceSession {
  private code: string | null = newJoinCode();
  private seq = 0;
  private current: PresenterPosition = { traceId: null, hop: null, present: false, replay: null };
  private readonly shown = new Set<string>();
  private readonly viewers = new Set<WebSocket>();
  /** Wrong join codes, per address: limited, and counted for the presenter. */
  readonly codeGuard = new WrongCodeGuard();
  /** Told when a viewer joins or leaves (the recorder serialises live frames only while someone watches). */
  onViewersChanged: (() => void) | null = null;

  get joinCode(): string | null {
    return this.code;
  }

  get viewerCount(): number {
    return this.viewers.size;
  }

  get position(): PresenterPosition {
    return this.current;
  }

  /** Constant-time comparison: the code is the only thing between the room and the listener. */
  accepts(code: string | undefined): boolean {
    if (!this.code || code === undefined) return false;
    const a = Buffer.from(code);
    const b = Buffer.from(this.code);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  /** True when viewers may read this trace: the presenter has had it open during this session. */
  mayRead(traceId: string): boolean {
    return this.shown.has(traceId);
  }

  shownTraceIds(): string[] {
    return [...this.shown];
  }

  move(position: PresenterPosition): void {
    this.current = position;
    if (position.traceId) this.shown.add(position.traceId);
    this.broadcast(this.positionFrame());
  }

  positionFrame(): AudienceServerFrame {
    return { type: "position", seq: ++this.seq, position: this.current };
  }

  /**
   * A recorder event, as announced to the live feed: passed on to the viewers when it belongs to a trace
   * the speaker has shown, so a trace recorded during the talk grows on their screens as it does on the
   * speaker's. Nothing is built or parsed while no viewer is connected.
   */
  relay(event: AnyEvent): void {
    // A parked frame was announced while nobody was subscribed, this view included (it subscribes with its first viewer).
    if (this.viewers.size === 0 || this.shown.size === 0 || "park" in event) return;
    const e: FeedEvent = "json" in event ? (JSON.parse(event.json()) as FeedEvent) : event;
    // A notes-file change goes with the trace whose tool call made it (the write lesson's punchline, "2 notes
    // deleted", must reach the room as it happens); an uncaused one (a hand edit, a reset) belongs to no
    // shown trace and is not sent.
    const traceId =
      e.type === "exchange.started" || e.type === "exchange.completed"
        ? e.exchange.traceId
        : e.type === "exchange.chunk"
          ? e.traceId
          : e.type === "trace.updated"
            ? e.trace.id
            : e.type === "notes.changed"
              ? e.change.traceId
              : null;
    if (traceId === null || !this.shown.has(traceId)) return;
    const safe =
      e.type === "exchange.started" || e.type === "exchange.completed"
        ? { ...e, exchange: redactedSummary(e.exchange) }
        : e;
    const seq = ++this.seq;
    this.broadcast({ type: "live", frame: { ...safe, seq } as AudienceLiveFrame });
  }

  join(ws: WebSocket): void {
    this.viewers.add(ws);
    this.onViewersChanged?.();
    ws.on("close", () => {
      this.viewers.delete(ws);
      this.onViewersChanged?.();
    });
  }

  end(): void {
    this.code = null;
    this.shown.clear();
    const bye = JSON.stringify({
      type: "ended",
      message: "the presenter ended the session",
    } satisfies AudienceServerFrame);
    for (const ws of this.viewers) {
      ws.send(bye);
      ws.close(ENDED_CLOSE_CODE, "the presenter ended the session");
    }
    this.viewers.clear();
    this.onViewersChanged?.();
  }

  restart(): void {
    this.end();
    this.code = newJoinCode();
    this.current = { traceId: null, hop: null, present: false, replay: null };
  }

  private broadcast(frame: AudienceServerFrame): void {
    const data = JSON.stringify(frame);
    // A viewer that cannot keep up (over 1 MB unsent) is dropped; it reconnects and gets the latest position.
    for (const ws of this.viewers) {
      if (ws.bufferedAmount > 1024 * 1024) ws.terminate();
      else ws.send(data);
    }
  }
}
