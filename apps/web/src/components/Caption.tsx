/** The plain-language caption of a hop, for learners: what just happened and why it matters. */
import type { Caption as CaptionText } from "../models/captions";
import type { HopKind } from "../models/hops";
import s from "./Caption.module.css";

interface Props {
  number: number;
  kind: HopKind;
  caption: CaptionText;
  large?: boolean;
}

export function Caption({ number, kind, caption, large }: Props) {
  return (
    <div
      class={`${s.caption} ${large ? s.large : ""}`}
      data-kind={kind}
      data-state={caption.state}
      data-testid="caption"
    >
      <span class={s.number}>{number}</span>
      <div>
        <h2 class={s.title}>{caption.title}</h2>
        <p class={s.text}>{caption.text}</p>
        {caption.meter ? (
          <p class={s.meter} data-testid="caption-meter" aria-live="polite">
            {caption.meter}
          </p>
        ) : null}
      </div>
    </div>
  );
}
