/**
 * Keyboard shortcuts, one table for both the handler and the help overlay (`?`), so the overlay can
 * never drift from what the keys do. Keys are ignored while typing in a text field.
 */
import type { AppContext } from "./app-context";
import type { DetailTab } from "./UiModel";

export interface Shortcut {
  keys: string[];
  label: string;
  run(ctx: AppContext): void;
  /** Only where the live UI's controls are (the ask box, the trace list, follow live): not on a read-only page. */
  liveOnly?: true;
}

function tab(t: DetailTab) {
  return (ctx: AppContext) => {
    ctx.ui.tab.value = t;
  };
}

export const SHORTCUTS: Shortcut[] = [
  { keys: ["j", "ArrowRight", "ArrowDown"], label: "Next hop", run: (c) => c.replay.step(1) },
  { keys: ["k", "ArrowLeft", "ArrowUp"], label: "Previous hop", run: (c) => c.replay.step(-1) },
  { keys: ["g", "Home"], label: "First hop", run: (c) => c.replay.first() },
  { keys: ["G", "End"], label: "Last hop", run: (c) => c.replay.last() },
  { keys: ["["], label: "Newer trace in the list", run: (c) => openNeighbour(c, -1), liveOnly: true },
  { keys: ["]"], label: "Older trace in the list", run: (c) => openNeighbour(c, 1), liveOnly: true },
  {
    keys: ["l"],
    label: "Follow live again (after you navigated by hand)",
    run: (c) => c.followLive.resume(),
    liveOnly: true,
  },
  { keys: ["r"], label: "Narrate from the start (replay)", run: (c) => c.replay.begin() },
  {
    keys: [" ", "PageDown"],
    label: "Next hop (step mode) · play, pause, go on (auto)",
    run: (c) => c.replay.advance(),
  },
  { keys: ["PageUp"], label: "Previous hop (a presentation clicker's back)", run: (c) => c.replay.step(-1) },
  { keys: ["m"], label: "Step mode / auto-advance (holds at key hops)", run: (c) => c.replay.toggleMode() },
  { keys: ["f"], label: "Replay faster (up to 4×)", run: (c) => c.replay.faster() },
  { keys: ["s"], label: "Replay slower (down to 0.25×)", run: (c) => c.replay.slower() },
  { keys: ["Escape"], label: "Close overlays, leave presenter mode, then leave replay", run: escape },
  { keys: ["p"], label: "Presenter mode", run: (c) => (c.ui.presenter.value = !c.ui.presenter.value) },
  { keys: ["t"], label: "Dark / light theme", run: (c) => c.ui.cycleTheme() },
  { keys: ["/"], label: "Follow a value across hops", run: () => focus("follow-input") },
  { keys: ["a"], label: "Ask the agent", run: () => focus("ask-input"), liveOnly: true },
  { keys: ["0"], label: "Conversation (your question, the host's reply)", run: tab("agent") },
  { keys: ["1"], label: "Wire tab", run: tab("wire") },
  { keys: ["2"], label: "What the model saw", run: tab("saw") },
  { keys: ["3"], label: "What the model wrote", run: tab("wrote") },
  { keys: ["4"], label: "What is new (diff)", run: tab("diff") },
  { keys: ["5"], label: "MCP", run: tab("mcp") },
  { keys: ["6"], label: "Timing", run: tab("timing") },
  { keys: ["7"], label: "Token budget (what the tools cost)", run: tab("budget") },
  { keys: ["?"], label: "This help", run: (c) => (c.ui.helpOpen.value = !c.ui.helpOpen.value) },
];

/**
 * The keys of a read-only page (a shared file, the audience viewer): the live UI's minus those of controls
 * it does not have, plus its own (the viewer's "follow the speaker"), first.
 */
export function readOnlyShortcuts(own: Shortcut[] = []): Shortcut[] {
  return [...own, ...SHORTCUTS.filter((s) => !s.liveOnly)];
}

function openNeighbour(ctx: AppContext, delta: 1 | -1): void {
  const list = ctx.traces.shown.value;
  const i = list.findIndex((t) => t.id === ctx.trace.traceId.value);
  const next = list[i < 0 ? 0 : Math.min(list.length - 1, Math.max(0, i + delta))];
  if (next && next.id !== ctx.trace.traceId.value) void ctx.trace.open(next.id, 1);
}

function escape(ctx: AppContext): void {
  if (ctx.ui.helpOpen.value) ctx.ui.helpOpen.value = false;
  else if (ctx.ui.followOpen.value) ctx.ui.followOpen.value = false;
  else if (ctx.ui.presenter.value) ctx.ui.presenter.value = false;
  else if (ctx.replay.active.value) ctx.replay.exit();
}

function focus(id: string): void {
  const el = document.getElementById(id);
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
    el.focus();
    el.select();
  }
}

function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))
  );
}

/** Ctrl/⌘ with + − 0 zooms the whole UI (instead of the browser's page zoom, which the room cannot see reset). */
const ZOOM_KEYS: Record<string, 1 | -1 | 0> = { "+": 1, "=": 1, "-": -1, _: -1, "0": 0 };

export function handleKey(ctx: AppContext, event: KeyboardEvent, shortcuts: Shortcut[] = SHORTCUTS): void {
  const zoom = ZOOM_KEYS[event.key];
  if ((event.ctrlKey || event.metaKey) && !event.altKey && zoom !== undefined) {
    event.preventDefault();
    ctx.ui.zoomBy(zoom);
    return;
  }
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (isTyping(event.target)) {
    if (event.key === "Escape" && event.target instanceof HTMLElement) event.target.blur();
    return;
  }
  const shortcut = shortcuts.find((s) => s.keys.includes(event.key));
  if (!shortcut) return;
  // Also keeps Space on a focused button from clicking it: the narration key acts once.
  event.preventDefault();
  shortcut.run(ctx);
}

export function keyName(key: string): string {
  return key === " "
    ? "Space"
    : key === "PageDown"
      ? "PgDn"
      : key === "PageUp"
        ? "PgUp"
        : key === "ArrowRight"
          ? "→"
          : key === "ArrowLeft"
            ? "←"
            : key === "ArrowUp"
              ? "↑"
              : key === "ArrowDown"
                ? "↓"
                : key === "Escape"
                  ? "Esc"
                  : key;
}
