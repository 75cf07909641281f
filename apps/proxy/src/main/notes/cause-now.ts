/**
 * Which `tools/call` caused a change the watcher noticed at time T. The MCP server writes the file and
 * then answers, and the recorder learns about an exchange from its recording thread a few ms later; so
 * a quick call (a few ms) may already be over — or not yet announced — when the change is seen. The
 * cause is therefore decided a moment later (`settleMs`): the latest mutating tools/call still in flight
 * that began before T, else the latest stored one whose request began before T and whose answer came
 * after it, or shortly before it (the file was written in between; SEEN_LATE_MS). A `read` changes nothing, so a change then is someone else's.
 */
import type { NotesCause } from "@hopscope/shared/trace/notes-file";
import type { ExchangeSummary } from "@hopscope/shared/trace/schemas";
import type { CauseWindow, StoredMcpExchange } from "../../link/calls";

const READ_ONLY_TOOLS = new Set(["read"]);
/** Clock jitter between the watcher's time and the tap's: a change may be seen a little before the tap stamps. */
const SLACK_MS = 50;
/**
 * A change can be seen late: the folder watch may miss it (rename-into-place, some file systems) and the
 * poll (every 500 ms) then finds it. A call whose answer came this long before the sighting still counts.
 */
const SEEN_LATE_MS = 1_000;
/** Recent exchanges looked at in the store (by id, newest first: an index range, never a scan). */
const RECENT = 500;

function mutating(
  c: ExchangeSummary["classification"],
): c is Extract<ExchangeSummary["classification"], { kind: "mcp" }> {
  return (
    c.kind === "mcp" && c.method === "tools/call" && !(c.toolName !== undefined && READ_ONLY_TOOLS.has(c.toolName))
  );
}

function causeOf(traceId: string, exchangeId: number, toolName: string | undefined): NotesCause {
  return { kind: "tool-call", traceId, exchangeId, ...(toolName ? { toolName } : {}) };
}

/** The latest mutating tools/call in flight that began by `at`. */
export function causeAmong(inFlight: readonly ExchangeSummary[], at = Number.MAX_SAFE_INTEGER): NotesCause {
  let best: ExchangeSummary | null = null;
  for (const x of inFlight) {
    if (x.tap !== "mcp" || !mutating(x.classification) || x.timings.start > at + SLACK_MS) continue;
    if (!best || x.timings.start > best.timings.start) best = x;
  }
  if (!best || best.classification.kind !== "mcp") return { kind: "none" };
  return causeOf(best.traceId, best.id, best.classification.toolName);
}

/** The stored exchanges a change seen at `at` may come from: the request began by it, the answer ended after it. */
export function causeWindow(at: number): CauseWindow {
  return { startBy: at + SLACK_MS, endAfter: at - SEEN_LATE_MS, recent: RECENT };
}

/** The latest stored mutating tools/call among the window's exchanges (the latest request first). */
export function causeInStore(rows: readonly StoredMcpExchange[]): NotesCause {
  // The latest tools/call decides: a read after a write means the change is someone else's.
  for (const r of rows) {
    const c = r.classification;
    if (c.kind !== "mcp" || c.method !== "tools/call") continue;
    return mutating(c) ? causeOf(r.traceId, r.id, c.toolName) : { kind: "none" };
  }
  return { kind: "none" };
}

/** True while any tools/call is in flight (a reset then could race the MCP server's own write). */
export function toolCallRunning(inFlight: readonly ExchangeSummary[]): boolean {
  return inFlight.some(
    (x) => x.tap === "mcp" && x.classification.kind === "mcp" && x.classification.method === "tools/call",
  );
}

export interface CauseDeps {
  inFlight: () => Promise<ExchangeSummary[]>;
  /** The stored exchanges in a window (read on the recording thread). */
  stored: (window: CauseWindow) => Promise<StoredMcpExchange[]>;
  /** How long to let the recorder catch up before deciding (ms). */
  settleMs: number;
}

/** Decides the cause of a change seen at `at`, once the recorder has caught up (see the module comment). */
export async function causeAt(deps: CauseDeps, at: number): Promise<NotesCause> {
  for (const wait of [deps.settleMs, deps.settleMs * 2]) {
    await new Promise((r) => setTimeout(r, wait));
    const live = causeAmong(await deps.inFlight(), at);
    if (live.kind !== "none") return live;
    const stored = causeInStore(await deps.stored(causeWindow(at)));
    if (stored.kind !== "none") return stored;
  }
  return { kind: "none" };
}
