/** The prompt as tokens: each token a box (boundaries visible), its id below or on hover. */
import { useSignal } from "@preact/signals";
import type { PromptTokens } from "@hopscope/shared/trace/views";
import { tokenPieces } from "../models/token-pieces";
import s from "./TokenView.module.css";

/** Tokens drawn before "show all": a long conversation is tens of thousands. */
const FIRST_TOKENS = 3000;

interface Props {
  /** The text the tokens are of (the prompt, the raw output). */
  text: string;
  tokens: PromptTokens;
}

export function TokenView({ text, tokens }: Props) {
  const all = useSignal(false);
  const showIds = useSignal(false);
  const n = all.value ? tokens.count : Math.min(FIRST_TOKENS, tokens.count);
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
        {tokenPieces(text, tokens, 0, n).map((p, i) => (
          <span key={i} class={s.tok} title={`token ${i} · id ${tokens.ids[i]}`}>
            <span class={s.piece}>{p.replace(/\n/g, "↵\n")}</span>
            {showIds.value ? <span class={s.id}>{tokens.ids[i]}</span> : null}
          </span>
        ))}
      </div>
      {n < tokens.count ? (
        <button type="button" class={s.more} onClick={showAll}>
          Showing {n.toLocaleString()} of {tokens.count.toLocaleString()} tokens — show all
        </button>
      ) : null}
    </div>
  );
}
