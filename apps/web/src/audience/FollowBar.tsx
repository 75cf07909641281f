/**
 * The viewer's header controls: whether it follows the speaker, and the way back to them. On stage the
 * speaker's hop is left out (the header says "hop 3 of 8" already), so the question keeps its room.
 */
import { Button } from "../components/Button";
import type { FollowSpeakerModel } from "./FollowSpeakerModel";
import s from "./FollowBar.module.css";

export function FollowBar({ model }: { model: FollowSpeakerModel }) {
  if (model.ended.value) {
    return (
      <span class={`${s.status} ${s.ended}`} role="status" data-testid="audience-status" data-state="ended">
        The speaker ended the session
      </span>
    );
  }
  const hop = model.speaker.value?.hop;
  return model.following.value ? (
    <span class={`${s.status} ${s.on}`} role="status" data-testid="audience-status" data-state="following">
      ● Following the speaker{hop ? <span class={s.where}> · hop {hop}</span> : null}
    </span>
  ) : (
    <span class={s.wrap}>
      <span class={s.status} role="status" data-testid="audience-status" data-state="own">
        On your own{hop ? <span class={s.where}> · the speaker is at hop {hop}</span> : null}
      </span>
      <Button
        onClick={model.follow}
        hint="F"
        title="Jump back to where the speaker is and follow again"
        data-testid="follow-speaker"
      >
        Follow the speaker
      </Button>
    </span>
  );
}
