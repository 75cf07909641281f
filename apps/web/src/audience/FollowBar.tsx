/** The viewer's header controls: whether it follows the speaker, and the way back to them. */
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
      ● Following the speaker{hop ? ` · hop ${hop}` : ""}
    </span>
  ) : (
    <span class={s.wrap}>
      <span class={s.status} role="status" data-testid="audience-status" data-state="own">
        On your own{hop ? ` · the speaker is at hop ${hop}` : ""}
      </span>
      <Button onClick={model.follow} hint="F" title="Jump back to where the speaker is and follow again" data-testid="follow-speaker">
        Follow the speaker
      </Button>
    </span>
  );
}
