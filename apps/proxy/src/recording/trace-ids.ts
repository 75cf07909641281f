/**
 * The recorder's trace ids. Random bytes come from the pooled generator every app shares
 * (@hopscope/nodekit/trace-ids); the recorder's own traces are time-ordered on top of it.
 */
import { randomHexId } from "@hopscope/nodekit/trace-ids";

export { randomHexId };

/**
 * A trace-id generator for the traces the recorder starts itself: 6 bytes of the time in ms, then 10 random
 * bytes (32 hex digits, never all zeros). Ids in time order keep SQLite's inserts at the right edge of the
 * trace-id B-trees (the traces table and the exchanges' trace index): a batch then rewrites a few pages
 * instead of one page per trace, and most live traces are new (one exchange each).
 */
export const traceIdSource = (): (() => string) => () =>
  Date.now().toString(16).padStart(12, "0").slice(-12) + randomHexId(10);
