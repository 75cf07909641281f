/**
 * Follow live, visibly: "● Following live" while the view moves with each hop as it arrives, "Paused —
 * you picked hop 3" with a button (and the `l` key) to follow again, and how many questions are
 * running when there are several (the view follows the newest). The notes reset sits beside it.
 */
import { useApp } from "./AppContext";
import { Button } from "./Button";
import s from "./FollowLiveBar.module.css";
import { NotesReset } from "./NotesReset";

export function FollowLiveBar({ compact }: { compact?: boolean }) {
  const { followLive, trace } = useApp();
  const on = followLive.on.value;
  const running = followLive.running.value;
  // Paused while another question runs: say so, so the learner knows what "Follow live" would show.
  const elsewhere = on ? 0 : running.filter((id) => id !== trace.traceId.value).length;
  return (
    <div
      class={`${s.bar} ${compact ? s.compact : ""}`}
      data-testid="follow-live"
      data-on={on ? "true" : "false"}
      role="status"
    >
      {on ? (
        <span class={s.on} title={running.length ? undefined : "Following live — waiting for the next question"}>
          <i class={`${s.dot} ${running.length ? s.live : ""}`} aria-hidden="true" />
          {running.length || compact ? "Following live" : "Following live — waiting for the next question"}
        </span>
      ) : (
        <>
          {/* On stage the header is the question's: the reason goes in the tooltip, the state and the way back stay. */}
          <span
            class={s.paused}
            title={followLive.pausedBecause.value ? `Paused — ${followLive.pausedBecause.value}` : undefined}
          >
            Paused{followLive.pausedBecause.value && !compact ? ` — ${followLive.pausedBecause.value}` : ""}
          </span>
          <Button variant="primary" hint="l" onClick={() => followLive.resume()} data-testid="follow-live-resume">
            Follow live
          </Button>
        </>
      )}
      {elsewhere > 0 ? (
        <span class={s.many} data-testid="follow-live-elsewhere">
          {compact
            ? `${elsewhere} running elsewhere`
            : elsewhere === 1
              ? "A question is running in another trace"
              : `${elsewhere} questions are running in other traces`}
        </span>
      ) : running.length > 1 ? (
        <span class={s.many} data-testid="follow-live-many">
          {running.length} {compact ? "running" : "questions running"}
          {on ? (compact ? " · newest shown" : " — following the newest") : ""}
        </span>
      ) : null}
      {compact ? null : <NotesReset />}
    </div>
  );
}
