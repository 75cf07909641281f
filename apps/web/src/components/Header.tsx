/** Top bar: the name, the ask box, which model answers, the live connection, and view toggles. */
import { useApp } from "./AppContext";
import { AskBox } from "./AskBox";
import { Button } from "./Button";
import { ConnectionIndicator } from "./ConnectionIndicator";
import s from "./Header.module.css";
import { ZoomControl } from "./ZoomControl";

export function Header() {
  const { ui, trace } = useApp();
  function togglePresenter(): void {
    ui.presenter.value = !ui.presenter.value;
  }
  function toggleHelp(): void {
    ui.helpOpen.value = !ui.helpOpen.value;
  }
  const dark = ui.theme.value === "dark";
  return (
    <header class={s.header}>
      <a class={s.brand} href="#/" title="hopscope: see every hop">
        <span class={s.logo} aria-hidden="true">
          <i /> <i /> <i />
        </span>
        hopscope
      </a>
      <AskBox />
      <div class={s.tools}>
        <ConnectionIndicator />
        <ZoomControl />
        <Button
          variant="quiet"
          onClick={togglePresenter}
          disabled={trace.traceId.value === null}
          hint="p"
          title="Presenter mode: large type, one hop at a time"
        >
          Present
        </Button>
        <Button variant="quiet" onClick={ui.cycleTheme} hint="t" title="Switch between dark and light">
          {dark ? "Light" : "Dark"}
        </Button>
        <Button variant="quiet" onClick={toggleHelp} hint="?" title="Keyboard shortcuts">
          Keys
        </Button>
      </div>
    </header>
  );
}
