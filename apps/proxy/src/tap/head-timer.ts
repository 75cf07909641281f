/**
 * The head timeout's clock (HEADERS_TIMEOUT_MS, node:http's headersTimeout): one coarse interval per tap
 * instead of a timer per request. A connection notes the tick its request head began at (an integer store on
 * the hot path, nothing allocated); each tick the tap asks every connection whether its head is overdue, as
 * node:http's connectionsCheckingInterval does.
 */
export class HeadTimer {
  /** Ticks so far; a head that began at tick `t` is overdue at `t + ticks`. */
  tick = 0;
  /** At least the timeout between the head's first byte and the tick that finds it overdue, at most ~20 % more. */
  readonly ticks: number;
  private readonly timer: NodeJS.Timeout;

  constructor(timeoutMs: number, check: (tick: number) => void) {
    const every = Math.min(1000, Math.max(10, Math.floor(timeoutMs / 10)));
    // A head that began just before a tick is one interval younger than the tick count says.
    this.ticks = Math.ceil(timeoutMs / every) + 1;
    this.timer = setInterval(() => check(++this.tick), every);
    this.timer.unref();
  }

  close(): void {
    clearInterval(this.timer);
  }
}
