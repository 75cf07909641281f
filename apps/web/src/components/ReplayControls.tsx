/**
 * Replay: back, play/next, forward, the speed (0.25×–4×), step or auto-advance mode, and leave replay.
 * Step mode: Space shows the next hop; auto mode: it advances by itself and holds at the key hops.
 */
import type { JSX } from "preact";
import { formatMs } from "../models/body";
import { SPEEDS } from "../models/replay-timing";
import { useApp } from "./AppContext";
import { Button } from "./Button";
import s from "./ReplayControls.module.css";
import { ReplayStatus } from "./ReplayStatus";

export function ReplayControls() {
  const { replay, trace } = useApp();
  const hops = trace.hops.value;
  const cur = trace.selectedHop.value;
  const step = replay.mode.value === "step";
  function back(): void {
    replay.step(-1);
  }
  function forward(): void {
    replay.step(1);
  }
  function onSpeed(event: JSX.TargetedEvent<HTMLSelectElement>): void {
    replay.setSpeed(Number(event.currentTarget.value));
    // Hand the keyboard back: a focused select would swallow Space, the narration's key.
    event.currentTarget.blur();
  }
  return (
    <div class={s.controls} role="group" aria-label="Replay">
      <Button variant="quiet" onClick={back} title="Previous hop (k / ←)" aria-label="Previous hop">
        ◀
      </Button>
      <Button
        variant={replay.playing.value ? "default" : "quiet"}
        onClick={replay.advance}
        title={
          step
            ? "Show the next hop, its streamed text at the recorded pace (Space)"
            : "Auto-advance; holds at the key hops (Space)"
        }
        data-testid="play"
      >
        {step ? (replay.active.value ? "▶ Next" : "▶ Replay") : replay.playing.value ? "❚❚ Pause" : "▶ Play"}
      </Button>
      <Button variant="quiet" onClick={forward} title="Next hop, at once (j / →)" aria-label="Next hop">
        ▶▶
      </Button>
      <Button
        variant="quiet"
        onClick={replay.toggleMode}
        title="Step (Space per hop) or auto-advance (m)"
        data-testid="replay-mode"
      >
        {step ? "step" : "auto"}
      </Button>
      <select
        class={s.speed}
        value={String(replay.speed.value)}
        onChange={onSpeed}
        title="Replay speed (f faster, s slower)"
        data-testid="speed"
        aria-label="Replay speed"
      >
        {SPEEDS.map((v) => (
          <option key={v} value={String(v)}>
            {v}×
          </option>
        ))}
      </select>
      <span class={s.pos} data-testid="hop-position">
        hop {cur ?? "–"} / {hops.length ? hops[hops.length - 1]?.number : 0}
      </span>
      {replay.active.value ? (
        <span class={s.time} title="Replay position: recorded time since the question was sent">
          {formatMs(Math.max(0, replay.cursor.value ?? 0))} /{" "}
          {formatMs(replay.events.value[replay.events.value.length - 1]?.t ?? 0)}
        </span>
      ) : null}
      <ReplayStatus />
      {replay.active.value ? (
        <Button variant="quiet" onClick={replay.exit} title="Show the whole trace (Esc)">
          ✕ replay
        </Button>
      ) : null}
    </div>
  );
}
