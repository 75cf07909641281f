/** The timeline's shell: header, traces list, sequence view and hop detail — or the presenter view. */
import type { AppContext } from "../models/app-context";
import { AppCtx } from "./AppContext";
import { useShortcuts } from "./useShortcuts";
import s from "./App.module.css";
import { EmptyState } from "./EmptyState";
import { FollowLiveBar } from "./FollowLiveBar";
import { FollowPanel } from "./FollowPanel";
import { Header } from "./Header";
import { HelpOverlay } from "./HelpOverlay";
import { HopDetail } from "./HopDetail";
import { PresenterView } from "./PresenterView";
import { SequenceView } from "./SequenceView";
import { StorageBanner } from "./StorageBanner";
import { TraceList } from "./TraceList";
import { TraceToolbar } from "./TraceToolbar";

interface Props {
  ctx: AppContext;
}

export function App({ ctx }: Props) {
  useShortcuts(ctx);

  const open = ctx.trace.traceId.value !== null;
  return (
    <AppCtx.Provider value={ctx}>
      <div class={s.app}>
        <StorageBanner />
        {ctx.ui.presenter.value && open ? (
          <PresenterView status={<FollowLiveBar compact />} />
        ) : (
          <>
            <Header />
            <FollowLiveBar />
            <main class={s.main}>
              <TraceList />
              {open ? (
                <>
                  <section class={s.center} aria-label="Sequence of hops">
                    <TraceToolbar />
                    <SequenceView />
                    {ctx.ui.followOpen.value ? <FollowPanel /> : null}
                  </section>
                  <HopDetail />
                </>
              ) : (
                <EmptyState />
              )}
            </main>
          </>
        )}
        {ctx.ui.helpOpen.value ? <HelpOverlay /> : null}
      </div>
    </AppCtx.Provider>
  );
}
