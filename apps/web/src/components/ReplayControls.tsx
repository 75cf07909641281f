/** Replay: back, play/pause at recorded pace (or faster), forward, and leave replay. */
import { formatMs } from "../models/body";
import { useApp } from "./AppContext";
import { Button } from "./Button";
import s from "./ReplayControls.module.css";

export function ReplayControls() {
  const { replay, trace } = useApp();
  const hops = trace.hops.value;
  const cur = trace.selectedHop.value;
  function back(): void {
    replay.step(-1);
  }
  function forward(): void {
    replay.step(1);
  }
  return (
    <div class={s.controls} role="group" aria-label="Replay">
      <Button variant="quiet" onClick={back} title="Previous hop (k / ←)" aria-label="Previous hop">
        ◀
      </Button>
      <Button variant={replay.playing.value ? "default" : "quiet"} onClick={replay.togglePlay} title="Play at recorded pace (Space)" data-testid="play">
        {replay.playing.value ? "❚❚ Pause" : "▶ Replay"}
      </Button>
      <Button variant="quiet" onClick={forward} title="Next hop (j / →)" aria-label="Next hop">
        ▶▶
      </Button>
      <Button variant="quiet" onClick={replay.faster} title="Playback speed (f)" data-testid="speed">
        {replay.speed.value}×
      </Button>
      <span class={s.pos} data-testid="hop-position">
        hop {cur ?? "–"} / {hops.length ? hops[hops.length - 1]?.number : 0}
      </span>
      {replay.active.value ? (
        <span class={s.time} title="Replay position: time since the question was sent">
          {formatMs(Math.max(0, replay.cursor.value ?? 0))} / {formatMs(replay.events.value[replay.events.value.length - 1]?.t ?? 0)}
        </span>
      ) : null}
      {replay.active.value ? (
        <Button variant="quiet" onClick={replay.exit} title="Show the whole trace (Esc)">
          ✕ replay
        </Button>
      ) : null}
    </div>
  );
}
