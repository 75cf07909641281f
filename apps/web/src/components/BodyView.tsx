/**
 * A recorded body as text — never as HTML: it is untrusted and may contain markup or scripts. Pretty
 * JSON by default (raw on request); bodies over DISPLAY_LIMIT characters are cut until "show all", so
 * a 10 MB body does not freeze the page.
 */
import { useSignal } from "@preact/signals";
import { useMemo } from "preact/hooks";
import type { Body } from "@hopscope/shared/trace/schemas";
import { DISPLAY_LIMIT, bodyText, formatBytes, prettyText } from "../models/body";
import s from "./BodyView.module.css";
import { Highlighted } from "./Highlighted";

interface Props {
  body: Body | null;
}

export function BodyView({ body }: Props) {
  const raw = useSignal(false);
  const all = useSignal(false);
  // Decoding and pretty-printing a multi-megabyte body is slow: do it once per body and mode.
  const text = useMemo(() => bodyText(body), [body]);
  const shown = useMemo(() => (raw.value ? text : prettyText(text)), [text, raw.value]);
  if (!body || body.size === 0) return <p class={s.none}>no body</p>;
  const cut = !all.value && shown.length > DISPLAY_LIMIT;
  function toggleRaw(): void {
    raw.value = !raw.value;
  }
  function showAll(): void {
    all.value = true;
  }
  return (
    <div class={s.wrap}>
      <div class={s.bar}>
        <span>
          {body.contentType ?? "body"} · {formatBytes(body.size)}
          {body.encoding === "base64" ? " · not UTF-8 (decoded with replacement characters)" : ""}
          {body.truncated ? ` · the recorder kept the first ${formatBytes(body.storedSize)}` : ""}
        </span>
        <button type="button" class={s.toggle} onClick={toggleRaw}>
          {raw.value ? "Pretty" : "Raw"}
        </button>
      </div>
      <pre class={s.body} data-testid="body">
        <Highlighted text={cut ? shown.slice(0, DISPLAY_LIMIT) : shown} />
      </pre>
      {cut ? (
        <button type="button" class={s.more} onClick={showAll}>
          Showing {formatBytes(DISPLAY_LIMIT)} of {formatBytes(shown.length)} — show all
        </button>
      ) : null}
    </div>
  );
}
