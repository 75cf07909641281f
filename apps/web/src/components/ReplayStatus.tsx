/**
 * What the replay is doing, in words: "step mode · Space for the next hop", "playing 1×", "paused at a key
 * hop". On stage only the state shows (the footer lists the keys), so the question in the header keeps its room.
 */
import { useApp } from "./AppContext";
import s from "./ReplayStatus.module.css";

export function ReplayStatus() {
  const { replay } = useApp();
  if (!replay.active.value) return null;
  const [state, key] = replay.playing.value
    ? [`playing ${replay.speed.value}×`, ""]
    : replay.mode.value === "step"
      ? ["step mode", "Space: next hop"]
      : replay.heldAt.value !== null
        ? [`paused at key hop ${replay.heldAt.value}`, "Space: go on"]
        : ["paused", "Space: play"];
  return (
    <span class={s.status} data-testid="replay-status" title={key ? `${state} · ${key}` : state}>
      {state}
      {key ? <span class={s.key}> · {key}</span> : null}
    </span>
  );
}
