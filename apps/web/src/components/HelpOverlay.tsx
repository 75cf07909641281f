/** The keyboard shortcuts, generated from the same table the key handler uses. */
import { Fragment } from "preact";
import { SHORTCUTS, keyName, type Shortcut } from "../models/keyboard";
import { useApp } from "./AppContext";
import s from "./HelpOverlay.module.css";

/** `shortcuts`: the page's keys (a read-only page lists only those that do something there). */
export function HelpOverlay({ shortcuts = SHORTCUTS }: { shortcuts?: Shortcut[] }) {
  const { ui } = useApp();
  function close(): void {
    ui.helpOpen.value = false;
  }
  return (
    <div class={s.backdrop} onClick={close} data-testid="help">
      <div class={s.dialog} role="dialog" aria-label="Keyboard shortcuts" onClick={(e) => e.stopPropagation()}>
        <h2 class={s.title}>Keyboard shortcuts</h2>
        <dl class={s.keys}>
          {shortcuts.map((sc) => (
            <Fragment key={sc.label}>
              <dt>
                {sc.keys.map((k) => (
                  <kbd key={k}>{keyName(k)}</kbd>
                ))}
              </dt>
              <dd>{sc.label}</dd>
            </Fragment>
          ))}
        </dl>
        <p class={s.foot}>
          The address bar keeps the trace and the hop (<code>#/trace/…/hop/5</code>): share the link to open the same
          view. Select text in a hop to follow it. <kbd>Ctrl</kbd> <kbd>+</kbd> / <kbd>−</kbd> / <kbd>0</kbd> zooms the
          whole UI.
        </p>
      </div>
    </div>
  );
}
