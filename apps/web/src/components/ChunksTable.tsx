/** Streamed chunks as they arrived at the tap: time since the request started, size, and text. */
import type { Body, Chunk } from "@hopscope/shared/trace/schemas";
import { chunkTexts, formatBytes, formatMs } from "../models/body";
import s from "./ChunksTable.module.css";

/** Chunks listed before "show all" (a long generation has thousands). */
const FIRST_CHUNKS = 200;

interface Props {
  body: Body | null;
  chunks: readonly Chunk[];
}

export function ChunksTable({ body, chunks }: Props) {
  const texts = chunkTexts(body, chunks.slice(0, FIRST_CHUNKS));
  return (
    <details class={s.chunks} open={chunks.length <= 40}>
      <summary>
        {chunks.length} streamed chunks over {formatMs((chunks[chunks.length - 1]?.t ?? 0) - (chunks[0]?.t ?? 0))}
      </summary>
      <table class={s.table}>
        <thead>
          <tr>
            <th>#</th>
            <th>at</th>
            <th>size</th>
            <th>text</th>
          </tr>
        </thead>
        <tbody>
          {chunks.slice(0, FIRST_CHUNKS).map((c, i) => (
            <tr key={c.index}>
              <td>{c.index}</td>
              <td>+{formatMs(c.t)}</td>
              <td>{formatBytes(c.size)}</td>
              <td class={s.text}>{texts[i]}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {chunks.length > FIRST_CHUNKS ? (
        <p class={s.more}>… and {chunks.length - FIRST_CHUNKS} more (see the body below)</p>
      ) : null}
    </details>
  );
}
