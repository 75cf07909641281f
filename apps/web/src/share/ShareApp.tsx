/**
 * The shell of a read-only page (a shared trace file, an audience viewer): the same sequence view, hop
 * detail, presenter view, follow panel and help as the live UI, without the ask box, the traces list or
 * anything that changes the recorder. `embed` drops the header so the page fits an `<iframe>`.
 */
import type { ComponentChildren } from "preact";
import { useMemo } from "preact/hooks";
import type { AppContext } from "../models/app-context";
import { readOnlyShortcuts, type Shortcut } from "../models/keyboard";
import { AppCtx } from "../components/AppContext";
import { Button } from "../components/Button";
import { FollowPanel } from "../components/FollowPanel";
import { HelpOverlay } from "../components/HelpOverlay";
import { HopDetail } from "../components/HopDetail";
import { PresenterView } from "../components/PresenterView";
import { SequenceView } from "../components/SequenceView";
import { TraceToolbar } from "../components/TraceToolbar";
import { useShortcuts } from "../components/useShortcuts";
import a from "../components/App.module.css";
import h from "../components/Header.module.css";
import s from "./ShareApp.module.css";

interface Props {
  ctx: AppContext;
  embed: boolean;
  /** What the header says about where the trace comes from, e.g. "shared file · exported 1 Dec 2026". */
  origin: string;
  /** Extra header content (the audience viewer's follow controls), in presenter mode too. */
  extra?: ComponentChildren;
  /** The page's own keys (the viewer's "follow the speaker"), listed in the help with the rest. */
  keys?: Shortcut[];
  /** A message instead of the timeline (the embedded trace could not be read). */
  error?: string | null;
  /** What to say while no trace is open. */
  waiting?: string;
}

const NO_KEYS: Shortcut[] = [];

export function ShareApp({ ctx, embed, origin, extra, keys = NO_KEYS, error, waiting = "Opening the trace…" }: Props) {
  // The live UI's keys minus those of controls this page has not got (ask, follow live, the trace list).
  const shortcuts = useMemo(() => readOnlyShortcuts(keys), [keys]);
  useShortcuts(ctx, shortcuts);
  const { ui, trace } = ctx;
  const open = trace.traceId.value !== null;
  const dark = ui.theme.value === "dark" || document.documentElement.dataset.scheme === "dark";
  return (
    <AppCtx.Provider value={ctx}>
      <div class={a.app} data-testid="share-app" data-embed={embed ? "true" : undefined}>
        {ui.presenter.value && open ? (
          <PresenterView status={extra} />
        ) : (
          <>
            {embed ? null : (
              <header class={h.header}>
                <span class={h.brand}>
                  <span class={h.logo} aria-hidden="true">
                    <i /> <i /> <i />
                  </span>
                  hopscope
                </span>
                <span class={s.origin} data-testid="share-origin">
                  {origin}
                </span>
                {extra}
                <div class={h.tools}>
                  <Button
                    variant="quiet"
                    onClick={() => (ui.presenter.value = !ui.presenter.value)}
                    disabled={!open}
                    hint="p"
                    title="Presenter mode: large type, one hop at a time"
                  >
                    Present
                  </Button>
                  <Button variant="quiet" onClick={ui.cycleTheme} hint="t" title="Switch between dark and light">
                    {dark ? "Light" : "Dark"}
                  </Button>
                  <Button
                    variant="quiet"
                    onClick={() => (ui.helpOpen.value = !ui.helpOpen.value)}
                    hint="?"
                    title="Keyboard shortcuts"
                  >
                    Keys
                  </Button>
                </div>
              </header>
            )}
            {error ? (
              <p class={`${s.message} ${s.error}`} role="alert">
                {error}
              </p>
            ) : open ? (
              <main class={s.main}>
                <section class={a.center} aria-label="Sequence of hops">
                  <TraceToolbar />
                  <SequenceView />
                </section>
                <HopDetail />
              </main>
            ) : (
              <p class={s.message} role="status">
                {trace.loadError.value ?? waiting}
              </p>
            )}
          </>
        )}
        {ui.followOpen.value && open ? <FollowPanel /> : null}
        {ui.helpOpen.value ? <HelpOverlay shortcuts={shortcuts} /> : null}
      </div>
    </AppCtx.Provider>
  );
}
