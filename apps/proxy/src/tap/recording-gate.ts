/**
 * Backpressure from recording to forwarding, on the taps thread: while the recording thread is behind (the
 * events sent to it and not yet acknowledged pass a high-water mark, tap/event-sender.ts), the gate is
 * closed and client connections stop reading new requests; they read again once it has drained. So under
 * a load it cannot record as fast as it forwards, the taps forward only what can be recorded.
 */
export class RecordingGate {
  private closedNow = false;
  private readonly waiting = new Set<() => void>();
  /** Times the gate closed, for the log. */
  closings = 0;

  get closed(): boolean {
    return this.closedNow;
  }

  /** Runs `reopened` once the gate opens (now, if it is open). */
  whenOpen(reopened: () => void): void {
    if (!this.closedNow) reopened();
    else this.waiting.add(reopened);
  }

  close(): void {
    if (!this.closedNow) this.closings++;
    this.closedNow = true;
  }

  open(): void {
    if (!this.closedNow) return;
    this.closedNow = false;
    const waiting = [...this.waiting];
    this.waiting.clear();
    for (const reopened of waiting) reopened();
  }
}
