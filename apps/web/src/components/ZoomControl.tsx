/** Zoom for the whole UI: − 100 % +, and Ctrl +/− / Ctrl 0 from the keyboard (see models/keyboard.ts). */
import { useApp } from "./AppContext";
import s from "./ZoomControl.module.css";

export function ZoomControl() {
  const { ui } = useApp();
  const pct = Math.round(ui.zoom.value * 100);
  return (
    <span class={s.zoom} role="group" aria-label="Zoom">
      <button type="button" class={s.btn} onClick={() => ui.zoomBy(-1)} title="Smaller (Ctrl −)" aria-label="Zoom out">
        −
      </button>
      <button type="button" class={s.pct} onClick={() => ui.zoomBy(0)} title="Reset zoom (Ctrl 0)" data-testid="zoom">
        {pct}%
      </button>
      <button type="button" class={s.btn} onClick={() => ui.zoomBy(1)} title="Larger (Ctrl +)" aria-label="Zoom in">
        +
      </button>
    </span>
  );
}
