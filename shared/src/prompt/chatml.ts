/**
 * The turns of a ChatML prompt (`<|im_start|>role\n` … `<|im_end|>`), the form Qwen 2.5's template writes:
 * the one reader of such a prompt, rendered or written by a client by hand (`/api/generate` with `raw`). The
 * stand-in reads one back into messages to continue it; the recorder names a trace after its last question.
 *
 * A turn without its `<|im_end|>` (the open assistant turn a prompt ends with, or a prompt cut off) runs to the
 * next `<|im_start|>` or to the end. Text before the first turn, and between a turn's end and the next, is not
 * part of any turn.
 */
export interface ChatmlTurn {
  /** What follows `<|im_start|>` on its line ("system", "user", "assistant"). */
  role: string;
  content: string;
  /** The turn ended with `<|im_end|>`. */
  closed: boolean;
}

const START = "<|im_start|>";
const END = "<|im_end|>";

export function chatmlTurns(prompt: string): ChatmlTurn[] {
  return prompt
    .split(START)
    .slice(1)
    .map((block) => {
      const nl = block.indexOf("\n");
      const role = nl === -1 ? block : block.slice(0, nl);
      const rest = nl === -1 ? "" : block.slice(nl + 1);
      const end = rest.indexOf(END);
      return { role, content: end === -1 ? rest : rest.slice(0, end), closed: end !== -1 };
    });
}
