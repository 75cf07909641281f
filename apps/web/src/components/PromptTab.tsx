/**
 * "What the model saw": the prompt the model server built from this request — the only thing the
 * model ever receives. Coloured by where each part came from; hovering a part highlights the JSON
 * field it came from (segment.path is a JSON pointer into the request body), and back.
 */
import { useSignal, type Signal } from "@preact/signals";
import { useEffect, useMemo } from "preact/hooks";
import type { ExchangeSummary } from "@hopscope/shared/trace/schemas";
import { fullTokens, type ExchangeViews } from "@hopscope/shared/trace/views";
import { bodyText, tryJson } from "../models/body";
import { countAgreement } from "../models/budget";
import { familyLabel } from "../models/family-diff";
import { useApp } from "./AppContext";
import { BodyView } from "./BodyView";
import { ContextPicture } from "./ContextPicture";
import { ConversionLayer } from "./ConversionLayer";
import { FamilyCompare } from "./FamilyCompare";
import { JsonTree } from "./JsonTree";
import { Loading } from "./Loading";
import { NeverSeen } from "./NeverSeen";
import { PromptSource } from "./PromptSource";
import { PromptText } from "./PromptText";
import s from "./PromptTab.module.css";
import { ThreeShapesView } from "./ThreeShapesView";
import { TokenView } from "./TokenView";

type PromptView = NonNullable<ExchangeViews["prompt"]>;

/** Requests up to this many characters are shown as a linked JSON tree; bigger ones as text. */
const JSON_TREE_LIMIT = 300_000;
/** A request's tree longer than this is drawn in a task after the prompt's (an agent's request takes long to lay out). */
const DRAW_AFTER_PROMPT = 32_000;

/** Plain words for what is known about this prompt; the how and why one click away. */
export function PromptInfo({ p, promptEvalCount }: { p: PromptView; promptEvalCount?: number | undefined }) {
  const agree = p.tokens ? countAgreement(p.tokens.count, promptEvalCount) : null;
  return (
    <div class={s.info}>
      {agree && p.tokens ? (
        <details class={s.status}>
          <summary
            class={agree.equal ? s.verified : s.unverified}
            data-testid="token-count"
            data-count={p.tokens.count}
          >
            {agree.text}
          </summary>
          <p class={s.note}>{agree.detail}</p>
        </details>
      ) : null}
      <PromptSource p={p} promptEvalCount={promptEvalCount} />
      {p.source?.renderedBy === "server" ? null : <RenderedAs p={p} />}
    </div>
  );
}

/** Which Ollama's render this is, and whether a live Ollama confirmed it. */
function RenderedAs({ p }: { p: PromptView }) {
  const at = p.verified?.endpoint ? ` (${p.verified.endpoint})` : "";
  const checked = p.verified
    ? p.verified.match
      ? `checked: a live Ollama${at} rendered exactly this text`
      : `differs from a live Ollama's render${at} at character ${p.verified.firstDifference ?? "?"}`
    : "not checked against a live server";
  const family = familyLabel(p.ollamaVersion);
  return (
    <details class={s.status}>
      <summary
        class={p.verified && !p.verified.match ? s.mismatch : p.verified ? s.verified : undefined}
        data-testid={p.verified?.match ? "verified" : undefined}
      >
        rendered as Ollama {p.ollamaVersion} does
        <span data-testid="ollama-family">{family ? ` — the ${family} family` : ""}</span>; {checked}
      </summary>
      <p class={s.note}>
        The model server turns the JSON into this text with the model's chat template; details change across Ollama
        versions (here the tools are printed {p.toolFormat === "json" ? "as JSON" : "as a Go struct dump"}). hopscope
        renders it the way Ollama {p.ollamaVersion} does.{" "}
        {p.verified
          ? `It also asked the real server to render ${p.verified.sent === "native" ? "the native request" : "the same request"} (_debug_render_only)${p.verified.endpoint ? ` at ${p.verified.endpoint}` : ""} and compared the two.`
          : "Only a real Ollama can confirm it (it renders a request on demand with _debug_render_only); the stand-in model cannot."}
      </p>
      {p.verifyRoute ? <VerifyRouteNote route={p.verifyRoute} verified={p.verified !== null} /> : null}
      {p.verified && !p.verified.match ? <FirstDifference v={p.verified} /> : null}
    </details>
  );
}

/** Which endpoint checks this request, and why not the dialect's own when it cannot (dialects/debug-render.ts). */
function VerifyRouteNote({ route, verified }: { route: NonNullable<PromptView["verifyRoute"]>; verified: boolean }) {
  const what =
    route.sent === "client"
      ? "the client's own request, so Ollama's conversion is checked as well as its render"
      : "the native request";
  return (
    <p class={s.note} data-testid="verify-route">
      {verified ? "Checked at" : "A live Ollama is asked at"} <code>{route.endpoint}</code> with {what}.
      {route.note ? ` ${route.note}` : ""}
    </p>
  );
}

/** Characters shown on each side of the first difference. */
const AROUND = 24;

/** Where the two renders part: a few characters of each around the first difference, whitespace made visible. */
function FirstDifference({ v }: { v: NonNullable<PromptView["verified"]> }) {
  const at = v.firstDifference ?? 0;
  const cut = (t: string) => JSON.stringify(t.slice(Math.max(0, at - AROUND), at + AROUND));
  return (
    <dl class={s.difference} data-testid="first-difference">
      <dt>hopscope</dt>
      <dd>
        <code>{cut(v.ours)}</code>
      </dd>
      <dt>the server</dt>
      <dd>
        <code>{cut(v.server)}</code>
      </dd>
    </dl>
  );
}

/** A converted request links each part to the client's own field (the JSON shown beside it), not the native one. */
function linkedToClient(p: PromptView): PromptView["segments"] {
  return p.conversion ? p.segments.map((seg) => ({ ...seg, path: seg.clientPath })) : p.segments;
}

/** What the text below is: what the model received, what was cut from it, or what a refused request would have become. */
function promptHeading(v: ExchangeViews): string {
  if (v.refused) return `The prompt Ollama would have rendered — refused (${v.refused.status}): the model never saw it`;
  if (v.prompt?.truncation?.dropped.length)
    return "The prompt as rendered — the struck-through messages were cut; the model received the rest";
  return "The prompt, as the model received it";
}

/**
 * Whether what never reached the model must stay in view above the prompt (the prompt's end then one scroll away):
 * a refusal, a cut, or whole messages and tools lost — not keys and settings alone.
 */
function keepTopInView(v: ExchangeViews): boolean {
  const lost = (v.prompt?.unseen ?? []).some((u) => u.kind === "role" || u.kind === "tool");
  return v.refused !== undefined || v.prompt?.truncation !== undefined || lost;
}

/** The ranges of the prompt that Ollama cut (each dropped message with its framing). */
function cutRanges(p: PromptView): { start: number; end: number }[] {
  const dropped = new Set(p.truncation?.dropped ?? []);
  return (p.budget?.parts ?? []).filter((part) => dropped.has(part.messageIndex ?? -1));
}

function pathOnly(url: string): string {
  return url.split("?")[0] ?? url;
}

/** True from the frame after the first paint: what it guards is drawn in a task of its own, after the prompt. */
function useAfterFirstPaint(): boolean {
  const ready = useSignal(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => (timer = setTimeout(() => (ready.value = true), 0)));
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return ready.value;
}

/** What the model saw as text, or as its tokens (loaded when first asked for: ids and offsets are most of the views). */
function PromptColumn({ x, v, hovered, showTokens }: ColumnProps & { showTokens: boolean }) {
  const { trace } = useApp();
  const p = v.prompt!;
  const segments = useMemo(() => linkedToClient(p), [p]);
  const cut = useMemo(() => cutRanges(p), [p]);
  const inView = fullTokens(p.tokens);
  const ask = showTokens && !inView;
  useEffect(() => {
    if (ask) void trace.loadTokens(x.id);
  }, [ask, x.id]);
  return (
    <div class={s.col}>
      <h3 class={s.heading} data-testid="prompt-heading">
        {promptHeading(v)}
      </h3>
      {showTokens && inView ? (
        <TokenView text={p.text} tokens={inView} />
      ) : showTokens ? (
        <Loading value={trace.tokens.value.get(x.id)} what="the tokens" retry={() => void trace.loadTokens(x.id)}>
          {(t) => (t.prompt ? <TokenView text={p.text} tokens={t.prompt} /> : <p class={s.note}>No tokens.</p>)}
        </Loading>
      ) : (
        <PromptText
          text={p.text}
          segments={segments}
          hovered={hovered}
          newFrom={v.diff?.commonPrefixLength}
          cut={cut}
          scrollOuter={!keepTopInView(v)}
        />
      )}
    </div>
  );
}

interface ColumnProps {
  x: ExchangeSummary;
  v: ExchangeViews;
  hovered: Signal<string | null>;
}

/** The JSON the client sent, linked to the prompt; drawn after the prompt (a request of an agent's size is long). */
function RequestColumn({ x, v, hovered }: ColumnProps) {
  const { trace } = useApp();
  const drawn = useAfterFirstPaint();
  const full = trace.full.value.get(x.id);
  const requestText = full?.status === "ready" ? bodyText(full.value.requestBody) : "";
  // A huge request is shown as plain text: a tree of spans for megabytes of JSON would stall the page.
  const request = useMemo(
    () => (requestText.length <= JSON_TREE_LIMIT ? tryJson(requestText) : undefined),
    [requestText],
  );
  return (
    <div class={s.col}>
      <h3 class={s.heading}>
        {v.prompt?.conversion ? `The JSON the client sent (${v.prompt.conversion.label})` : "The JSON the host sent"}
      </h3>
      {full?.status === "ready" && request === undefined ? (
        <BodyView body={full.value.requestBody} />
      ) : request === undefined || (!drawn && requestText.length > DRAW_AFTER_PROMPT) ? (
        <p class={s.note}>Loading the request…</p>
      ) : (
        <JsonTree value={request} hovered={hovered} />
      )}
    </div>
  );
}

/** The family comparisons: in the views of a shared file, else asked for once the prompt is on screen. */
function Families({ x, p, hovered }: { x: ExchangeSummary; p: PromptView; hovered: Signal<string | null> }) {
  const { trace } = useApp();
  const asked = p.comparisonsOnRequest === true;
  useEffect(() => {
    if (asked) void trace.loadFamilies(x.id);
  }, [asked, x.id]);
  const loaded = trace.families.value.get(x.id);
  const comparisons = asked ? (loaded?.status === "ready" ? loaded.value.comparisons : undefined) : p.comparisons;
  const withFamilies = useMemo(() => ({ ...p, comparisons }), [p, comparisons]);
  return comparisons ? <FamilyCompare p={withFamilies} hovered={hovered} /> : null;
}

/** How the prompt relates to what came before and how Ollama prints it: the conversion, the diff, the struct dump. */
function RenderNotes({ x, v, hovered }: ColumnProps) {
  const p = v.prompt!;
  return (
    <>
      {p.conversion ? <ConversionLayer c={p.conversion} hovered={hovered} path={pathOnly(x.url)} /> : null}
      {v.diff ? (
        <p class={s.note}>
          Dimmed: the {v.diff.commonPrefixLength.toLocaleString()} characters this prompt shares with the previous
          request's — the host resent the whole conversation. Only the end is new.
        </p>
      ) : null}
      {p.toolFormat === "struct-dump" && p.segments.some((seg) => seg.kind === "tool") ? (
        <p class={s.warn}>
          Ollama 0.14 and later print the tools into the prompt as a Go struct dump (
          <code>{"{append Append… {object <nil> …}}"}</code>), not as JSON. That is a known regression, and it is what
          the model really sees from those versions.
        </p>
      ) : null}
      <Families x={x} p={p} hovered={hovered} />
      {p.notes.length ? (
        <details class={s.notes}>
          <summary>
            {p.notes.length} note{p.notes.length === 1 ? "" : "s"} on how the model server rendered this request
          </summary>
          {p.notes.map((n) => (
            <p key={n} class={s.note}>
              {n}
            </p>
          ))}
        </details>
      ) : null}
    </>
  );
}

/** The colours of the prompt's parts, and the switch between text and tokens. */
function Legend({ hasTokens, showTokens }: { hasTokens: boolean; showTokens: Signal<boolean> }) {
  function toggleTokens(): void {
    showTokens.value = !showTokens.value;
  }
  return (
    <div class={s.legend} aria-label="Colour legend">
      <i data-kind="special">special tokens</i>
      <i data-kind="system">system</i>
      <i data-kind="tool">tool definitions</i>
      <i data-role="user">user</i>
      <i data-role="assistant">assistant</i>
      <i data-kind="tool-call">tool call</i>
      <i data-kind="tool-result">tool result</i>
      {hasTokens ? (
        <button type="button" class={s.tokensBtn} onClick={toggleTokens} aria-pressed={showTokens.value}>
          {showTokens.value ? "Show text" : "Show tokens"}
        </button>
      ) : null}
    </div>
  );
}

/** The three-shapes switch (model chats only) and its panel. */
function ShapesLink({ x }: { x: ExchangeSummary }) {
  const { shapes } = useApp();
  if (x.classification.kind !== "model.chat") return null;
  return (
    <>
      <button
        type="button"
        class={s.shapesBtn}
        onClick={() => shapes.open(x.id)}
        data-testid="open-three-shapes"
        title="This turn as Ollama, OpenAI and Anthropic clients send it, and the one prompt they all become"
      >
        Three shapes: this turn in Ollama, OpenAI and Anthropic form
      </button>
      {shapes.openFor.value === x.id ? <ThreeShapesView /> : null}
    </>
  );
}

function PromptViews({ x, v }: { x: ExchangeSummary; v: ExchangeViews }) {
  const hovered = useSignal<string | null>(null);
  const showTokens = useSignal(false);
  const p = v.prompt!;
  const promptEvalCount = x.classification.kind === "model.chat" ? x.classification.promptEvalCount : undefined;
  return (
    <div class={s.tab}>
      <NeverSeen p={p} refused={v.refused} />
      {p.budget ? <ContextPicture b={p.budget} truncation={p.truncation} compact headlineId="glance-headline" /> : null}
      <PromptInfo p={p} promptEvalCount={promptEvalCount} />
      <ShapesLink x={x} />
      <RenderNotes x={x} v={v} hovered={hovered} />
      <Legend hasTokens={p.tokens !== null} showTokens={showTokens} />
      <div class={s.split}>
        <PromptColumn x={x} v={v} hovered={hovered} showTokens={showTokens.value} />
        <RequestColumn x={x} v={v} hovered={hovered} />
      </div>
    </div>
  );
}

export function PromptTab({ x }: { x: ExchangeSummary }) {
  const { trace } = useApp();
  return (
    <Loading value={trace.views.value.get(x.id)} what="the rendered prompt" retry={() => void trace.loadViews(x.id)}>
      {(v) =>
        !v.prompt ? (
          <p class={s.note}>{v.notes?.join(" ") || "The prompt engine could not render this request."}</p>
        ) : (
          <PromptViews x={x} v={v} />
        )
      }
    </Loading>
  );
}
