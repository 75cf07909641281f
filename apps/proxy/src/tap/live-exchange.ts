/**
 * One exchange in flight on a tap, as the taps thread sees it: the bodies' kept bytes (up to the size cap,
 * chunks kept as they arrived, never joined here), chunk times and timings. Passive: the tap fills it
 * through ExchangeReporter; the Recorder, on the recording thread, decides what it is.
 */
import type { ExchangeState, Tap } from "@hopscope/shared/trace/schemas";
import { BodyCollector } from "../link/stored-body";

export interface BeginInit {
  tap: Tap;
  method: string;
  /** Path and query as the client sent them. */
  url: string;
  upstream: string;
  /** Request headers as received (before redaction, after the tap's own additions), Node's raw form. */
  requestHeaders: readonly string[];
  /** The client connection it came on (remote address:port of the client socket), e.g. for MCP sessions. */
  connection?: string | null;
}

export class LiveExchange {
  readonly startPerf = performance.now();
  /** Epoch form of startPerf (same instant), so chunk times add up: start + chunk.t = arrival. */
  readonly start = performance.timeOrigin + this.startPerf;
  readonly requestBody: BodyCollector;
  private responseKept = 0;
  state: ExchangeState = "pending";
  requestEnd: number | null = null;
  end: number | null = null;
  requestSent = false;

  constructor(
    /** The taps thread's number for it (the recorder gives it its exchange id). */
    readonly id: number,
    readonly init: BeginInit,
    private readonly maxBodyBytes: number,
    /** False when the recorder was too far behind at the start: forwarded, not recorded. */
    readonly recorded: boolean,
  ) {
    this.requestBody = new BodyCollector(maxBodyBytes);
  }

  /** The part of a response chunk under the cap (the recording thread keeps it); null once the cap is reached. */
  keepResponse(chunk: Buffer): Buffer | null {
    const room = this.maxBodyBytes - this.responseKept;
    if (room <= 0) return null;
    const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
    this.responseKept += part.length;
    return part;
  }

  get finished(): boolean {
    return this.end !== null;
  }
}
