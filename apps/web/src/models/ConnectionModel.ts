/**
 * The live feed's connection, as an explicit state machine the header renders exhaustively:
 *   connecting → live (first snapshot received) → reconnecting (socket lost; backing off) → connecting …
 *   → offline(message) after repeated failures (a slow retry keeps running; "Retry" tries at once).
 * Catch-up: the model remembers the last frame `seq` it saw; after a reconnect it sends
 * `{ type: "resume", since }` so the recorder replays what was missed. Frames are handed to `onFrame`
 * in order; consumers tolerate duplicates (a resume may overlap the snapshot).
 */
import { createModel, effect, signal } from "@preact/signals";
import type { ServerFrame } from "@hopscope/shared/trace/schemas";
import { openFeed, type Feed } from "../api/feed";

export type ConnectionState =
  | { state: "connecting" }
  | { state: "live" }
  | { state: "reconnecting"; attempt: number; retryInMs: number }
  | { state: "offline"; message: string };

/** Failed attempts before the UI says "offline" instead of "reconnecting". */
const OFFLINE_AFTER = 6;
const MAX_BACKOFF_MS = 10_000;
const OFFLINE_RETRY_MS = 15_000;

export const ConnectionModel = createModel((url: string, onFrame: (frame: ServerFrame) => void) => {
  const status = signal<ConnectionState>({ state: "connecting" });
  const lastSeq = signal<number | null>(null);
  const warning = signal<string | null>(null);
  let feed: Feed | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let failures = 0;
  let disposed = false;
  let resumeSent = false;

  function handleFrame(frame: ServerFrame): void {
    if (frame.type === "snapshot") {
      const prev = lastSeq.value;
      status.value = { state: "live" };
      failures = 0;
      onFrame(frame);
      // The snapshot shows the state now; events since our last seq may still matter to an open trace
      // (chunks of a stream in progress), so ask for them once per connection. The recorder answers
      // with the missed frames, or with a fresh snapshot when they are gone (then we take it as is).
      // A snapshot seq below ours means the recorder restarted: its numbering starts again.
      if (!resumeSent && prev !== null && prev < frame.seq) {
        resumeSent = true;
        lastSeq.value = prev;
        feed?.send({ type: "resume", since: prev });
      } else {
        lastSeq.value = frame.seq;
      }
      return;
    }
    if (lastSeq.value !== null && frame.seq <= lastSeq.value) return; // already seen (resume overlap)
    lastSeq.value = frame.seq;
    onFrame(frame);
  }

  function scheduleRetry(reason: string): void {
    feed = null;
    failures++;
    if (failures >= OFFLINE_AFTER) {
      status.value = {
        state: "offline",
        message: `The recorder is not reachable (${reason}). Is \`npm start\` still running?`,
      };
      timer = setTimeout(connect, OFFLINE_RETRY_MS);
      return;
    }
    const retryInMs = Math.min(250 * 2 ** failures, MAX_BACKOFF_MS);
    status.value = { state: "reconnecting", attempt: failures, retryInMs };
    timer = setTimeout(connect, retryInMs);
  }

  function connect(): void {
    if (disposed) return;
    timer = null;
    if (status.value.state !== "offline") status.value = { state: "connecting" };
    resumeSent = false;
    feed = openFeed(url, {
      onOpen: () => undefined, // "live" only once the snapshot has arrived: before that we know nothing.
      onFrame: handleFrame,
      onBadFrame: (message) => {
        warning.value = message;
        console.error(`[hopscope] ${message}`);
      },
      onClose: (reason) => {
        if (!disposed) scheduleRetry(reason);
      },
    });
  }

  function retryNow(): void {
    if (timer) clearTimeout(timer);
    feed?.close();
    failures = 0;
    status.value = { state: "connecting" };
    connect();
  }

  connect();
  // Owned by the model: runs its cleanup when the model is disposed.
  effect(() => () => {
    disposed = true;
    if (timer) clearTimeout(timer);
    feed?.close();
  });

  return { status, lastSeq, warning, retryNow };
});
export type ConnectionModel = InstanceType<typeof ConnectionModel>;
