/**
 * "What the model wrote": the raw text the model generated (rebuilt from the parsed response — Ollama
 * never sends it, so it is marked as reconstructed) beside what the model server parsed out of it.
 */
import { RAW_OUTPUT_NOTE } from "@hopscope/shared/toolcall/raw-output";
import type { ExchangeSummary } from "@hopscope/shared/trace/schemas";
import { parsedShape } from "../models/dialect-output";
import { inProgressNow, streamTextNow } from "../models/stream-text";
import { wasCut } from "../models/stream-state";
import { useApp } from "./AppContext";
import { generatedAgreement } from "../models/budget";
import { Highlighted } from "./Highlighted";
import { Loading } from "./Loading";
import s from "./OutputTab.module.css";

export function OutputTab({ x }: { x: ExchangeSummary }) {
  const { replay } = useApp();
  if (inProgressNow(replay, x)) return <ArrivingNow x={x} />;
  return (
    <div class={s.tab}>
      <div class={s.split}>
        <GeneratedText x={x} />
        <ParsedOutput x={x} />
      </div>
    </div>
  );
}

/** The text streamed so far, while the answer is still arriving. */
function ArrivingNow({ x }: { x: ExchangeSummary }) {
  const { trace, replay } = useApp();
  const text = streamTextNow(trace, replay, x);
  return (
    <div class={s.tab}>
      <h3 class={s.heading}>
        Arriving now…{" "}
        <span class={s.badge} title={RAW_OUTPUT_NOTE}>
          reconstructed
        </span>
      </h3>
      <pre class={`${s.raw} ${s.live}`} data-testid="streaming-text">
        {text ?? "(waiting for the first token)"}
        <span class={s.caret} />
      </pre>
    </div>
  );
}

/** The raw text the model generated, rebuilt, with its token count checked against the server's. */
function GeneratedText({ x }: { x: ExchangeSummary }) {
  const { trace } = useApp();
  return (
    <div class={s.col}>
      <h3 class={s.heading}>
        The text the model generated{" "}
        <span class={s.badge} title={RAW_OUTPUT_NOTE}>
          reconstructed
        </span>
      </h3>
      <Loading
        value={trace.views.value.get(x.id)}
        what="the model's raw output"
        retry={() => void trace.loadViews(x.id)}
      >
        {(v) =>
          v.rawOutput ? (
            <>
              <pre class={s.raw} data-testid="raw-output">
                <Highlighted text={v.rawOutput.text} />
              </pre>
              {v.rawOutput.tokens ? (
                <p class={s.note} data-testid="generated-count">
                  {generatedAgreement(
                    v.rawOutput.tokens.count,
                    x.classification.kind === "model.chat" ? x.classification.evalCount : undefined,
                  )}
                </p>
              ) : null}
            </>
          ) : (
            <p class={s.note}>{v.notes?.join(" ") || "No raw output could be rebuilt for this response."}</p>
          )
        }
      </Loading>
    </div>
  );
}

/** The tool calls and the content the model server parsed out of the text, in its dialect's fields. */
function ParsedOutput({ x }: { x: ExchangeSummary }) {
  const c = x.classification;
  const toolCalls = c.kind === "model.chat" ? c.toolCalls : [];
  const content = c.kind === "model.chat" ? c.content : undefined;
  const shape = parsedShape(x.url, toolCalls);
  return (
    <div class={s.col}>
      <h3 class={s.heading}>What the model server parsed from it</h3>
      {toolCalls.length > 0 ? (
        <>
          <p class={s.note}>
            <code>{shape.field}</code> — {toolCalls.length} call{toolCalls.length === 1 ? "" : "s"}. {shape.note} The
            model only asked; the host decides whether to run them.
          </p>
          <pre class={s.parsed} data-testid="parsed-tool-calls">
            {JSON.stringify(shape.value, null, 2)}
          </pre>
        </>
      ) : (
        <p class={s.note} data-testid="no-tool-calls">
          {wasCut(x)
            ? "No tool calls in what arrived: the stream was cut before the model server's final chunk, so this answer is incomplete."
            : "No tool calls: the model answered in words, so the host's loop ends."}
        </p>
      )}
      {content ? (
        <>
          <h3 class={s.heading}>
            <code>{shape.contentField}</code>
          </h3>
          <pre class={s.parsed}>{content}</pre>
        </>
      ) : null}
    </div>
  );
}
