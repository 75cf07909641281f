/** What every client connection of one tap shares (tap-server.ts builds it once per tap). */
import type { Tap } from "@hopscope/shared/trace/schemas";
import type { GuardPolicy } from "@hopscope/nodekit/guard";
import type { Logger } from "../logger";
import type { ExchangeReporter } from "./exchange-reporter";
import type { RecordingGate } from "./recording-gate";
import type { HeadTimer } from "./head-timer";
import type { UpstreamTarget } from "./upstream-link";

export interface RelayContext {
  tap: Tap;
  upstream: string;
  target: UpstreamTarget & { host: string; basePath: string };
  reporter: ExchangeReporter;
  /** Closed while the recording thread is behind (backpressure): no new request is read. */
  gate: RecordingGate;
  timeoutMs: number;
  /** The head timeout's clock (HEADERS_TIMEOUT_MS). */
  heads: HeadTimer;
  logger: Logger;
  guard: GuardPolicy;
}
