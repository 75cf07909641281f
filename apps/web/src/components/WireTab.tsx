/** The exchange as it crossed the wire: start line, headers, body (pretty or raw), streamed chunks. */
import type { Exchange, ExchangeSummary } from "@hopscope/shared/trace/schemas";
import { formatBytes } from "../models/body";
import { useApp } from "./AppContext";
import { BodyView } from "./BodyView";
import { ChunksTable } from "./ChunksTable";
import { HeadersTable } from "./HeadersTable";
import { Loading } from "./Loading";
import s from "./WireTab.module.css";

interface Props {
  x: ExchangeSummary;
  responseFirst: boolean;
}

function RequestPart({ e }: { e: Exchange }) {
  return (
    <section class={s.part} data-testid="wire-request">
      <h3 class={s.heading}>
        Request <span class={s.meta}>{formatBytes(e.requestSize)}</span>
      </h3>
      <pre class={s.startLine}>
        {e.method} {e.url} HTTP/1.1
      </pre>
      <HeadersTable headers={e.requestHeaders} />
      <BodyView body={e.requestBody} />
    </section>
  );
}

function ResponsePart({ e }: { e: Exchange }) {
  return (
    <section class={s.part} data-testid="wire-response">
      <h3 class={s.heading}>
        Response{" "}
        <span class={s.meta}>
          {formatBytes(e.responseSize)}
          {e.chunks.length ? ` · ${e.chunks.length} chunk${e.chunks.length === 1 ? "" : "s"}` : ""}
        </span>
      </h3>
      {e.error ? <p class={s.error}>{e.error}</p> : null}
      <pre class={s.startLine}>HTTP/1.1 {e.status ?? "(no response)"}</pre>
      <HeadersTable headers={e.responseHeaders} />
      {e.chunks.length > 1 ? <ChunksTable body={e.responseBody} chunks={e.chunks} /> : null}
      <BodyView body={e.responseBody} />
    </section>
  );
}

export function WireTab({ x, responseFirst }: Props) {
  const { trace } = useApp();
  return (
    <Loading value={trace.full.value.get(x.id)} what="the exchange" retry={() => void trace.loadExchange(x.id)}>
      {(e) => (
        <div class={s.wire}>
          <p class={s.upstream}>
            via the <b>{e.tap}</b> tap → {e.upstream}
          </p>
          {responseFirst ? (
            <>
              <ResponsePart e={e} />
              <RequestPart e={e} />
            </>
          ) : (
            <>
              <RequestPart e={e} />
              <ResponsePart e={e} />
            </>
          )}
        </div>
      )}
    </Loading>
  );
}
