/** The prompt as tokens: each token a box (boundaries visible), its id below or on hover. */
import { useSignal } from "@preact/signals";
import s from "./TokenView.module.css";

/** Tokens drawn before "show all": a long conversation is tens of thousands. */
const FIRST_TOKENS = 3000;

interface Props {
  tokens: { count: number; ids: number[]; pieces: string[] };
}

export function TokenView({ tokens }: Props) {
  const all = useSignal(false);
  const showIds = useSignal(false);
  const n = all.value ? tokens.pieces.length : Math.min(FIRST_TOKENS, tokens.pieces.length);
  function toggleIds(): void {
    showIds.value = !showIds.value;
  }
  function showAll(): void {
    all.value = true;
  }
  return (
    <div class={s.wrap}>
      <label class={s.option}>
        <input type="checkbox" checked={showIds.value} onChange={toggleIds} /> show token ids
      </label>
      <div class={`${s.tokens} ${showIds.value ? s.ids : ""}`} data-testid="tokens">
        {tokens.pieces.slice(0, n).map((p, i) => (
          <span key={i} class={s.tok} title={`token ${i} · id ${tokens.ids[i]}`}>
            <span class={s.piece}>{p.replace(/\n/g, "↵\n")}</span>
            {showIds.value ? <span class={s.id}>{tokens.ids[i]}</span> : null}
          </span>
        ))}
      </div>
      {n < tokens.pieces.length ? (
        <button type="button" class={s.more} onClick={showAll}>
          Showing {n.toLocaleString()} of {tokens.pieces.length.toLocaleString()} tokens — show all
        </button>
      ) : null}
    </div>
  );
}
