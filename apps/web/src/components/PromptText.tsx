/**
 * Rendered prompt text split into its segments. Each segment is a text node in a span (never HTML),
 * coloured by kind and role, and carries the JSON pointer of the request field it came from.
 */
import type { Signal } from "@preact/signals";
import type { JSX } from "preact";
import { useEffect, useMemo, useRef } from "preact/hooks";
import type { ExchangeViews } from "@hopscope/shared/trace/views";
import { chunks, pieces, type Piece } from "../models/prompt-pieces";
import { Highlighted } from "./Highlighted";
import s from "./PromptText.module.css";

type Segment = NonNullable<ExchangeViews["prompt"]>["segments"][number];

/** The prompt's line height (PromptText.module.css), for the height of a block not drawn yet. */
const LINE_EM = 1.6;
/** Prompts longer than this are laid out a block at a time, as they come into view. */
const SKIP_LAYOUT_CHARS = 32_000;

interface Props {
  text: string;
  segments: readonly Segment[];
  /** The JSON pointer hovered here or in the JSON tree (shared so each side highlights the other). */
  hovered: Signal<string | null>;
  large?: boolean;
  /** Characters before this offset were in the previous request's prompt too: shown dimmed. */
  newFrom?: number;
  /** Ranges Ollama cut to fit the context window: set apart, struck through. */
  cut?: readonly { start: number; end: number }[];
  /** Whether boxes around the prompt may scroll to bring its end into view (not when something above must stay read). */
  scrollOuter?: boolean;
}

export function relatedPaths(segmentPath: string | undefined, hovered: string | null): boolean {
  if (!segmentPath || !hovered) return false;
  return segmentPath === hovered || segmentPath.startsWith(`${hovered}/`) || hovered.startsWith(`${segmentPath}/`);
}

/** The boxes that scroll the prompt, innermost first (the prompt itself when it has its own scroll). */
function scrollBoxes(el: HTMLElement): HTMLElement[] {
  const out: HTMLElement[] = [];
  for (let e: HTMLElement | null = el; e; e = e.parentElement) {
    const o = getComputedStyle(e).overflowY;
    if ((o === "auto" || o === "scroll") && e.scrollHeight > e.clientHeight) out.push(e);
  }
  return out;
}

/** Keeps the prompt's end (or where it turns new) in view as it opens, until the reader scrolls. */
function useOpenAtEnd(ref: { current: HTMLPreElement | null }, deps: unknown[], scrollOuter: boolean): void {
  // Open the prompt with its end in view — the punchline is the user's turn and the waiting
  // "<|im_start|>assistant": a resent history opens where the new part starts, a first request at the
  // user's last turn. Only this box scrolls (scrollIntoView would also move the page around it).
  useEffect(() => {
    const pre = ref.current;
    if (!pre) return;
    const users = pre.querySelectorAll<HTMLElement>('[data-kind="message"][data-role="user"]');
    const marker = pre.querySelector<HTMLElement>("[data-new-marker]");
    const target = marker ?? users[users.length - 1];
    if (!target) return;
    const lead = parseFloat(getComputedStyle(pre).lineHeight) || 20;
    // The prompt's own box: a resent request opens where the new part starts; a first one at its very end
    // (the user's turn and the waiting assistant tag). An outer box scrolls only if the target is still hidden.
    // Where this effect last put the prompt's own scroll: a scroll elsewhere was someone else's (the reader, a
    // followed value, a linked field brought into view), and from then on the prompt stays where they put it.
    let placed = pre.scrollTop;
    function place(): void {
      scrollBoxes(pre!).forEach((box, i) => {
        const t = target!.getBoundingClientRect();
        const b = box.getBoundingClientRect();
        if (i === 0) box.scrollTop = marker ? box.scrollTop + t.top - b.top - lead : box.scrollHeight;
        else if (scrollOuter && (t.top < b.top || t.bottom > b.bottom)) box.scrollTop += t.top - b.top - lead;
      });
      placed = pre!.scrollTop;
    }
    place();
    // Content above may still be loading (the token budget) and shrink the box, and a chunk drawn for the first
    // time replaces its estimated height with its own: keep the end in view until the reader scrolls by themselves.
    const ro = new ResizeObserver(place);
    ro.observe(pre);
    if (pre.parentElement) ro.observe(pre.parentElement);
    for (const chunk of pre.children) ro.observe(chunk);
    const onScroll = (): void => {
      if (Math.abs(pre.scrollTop - placed) > 2) stop();
    };
    const stop = (): void => {
      ro.disconnect();
      pre.removeEventListener("scroll", onScroll);
    };
    pre.addEventListener("scroll", onScroll, { passive: true });
    for (const ev of ["wheel", "pointerdown", "touchstart", "keydown"])
      pre.parentElement?.addEventListener(ev, stop, { once: true, passive: true });
    return stop;
  }, deps);
}

interface Marks {
  hovered: string | null;
  newFrom: number | undefined;
  cut: readonly { start: number; end: number }[];
  /** Set once the first cut piece has its marker. */
  cutMarked: boolean;
}

/** One piece of the prompt as a span (a text node inside, never HTML), after its marker if it starts a cut or what is new. */
function pieceSpan(text: string, p: Piece<Segment>, key: string, m: Marks): JSX.Element | JSX.Element[] {
  const resent = m.newFrom !== undefined && p.end <= m.newFrom;
  const isCut = m.cut.some((r) => p.start >= r.start && p.start < r.end);
  const cls = [
    p.seg ? s.seg : "",
    p.seg && relatedPaths(p.seg.path, m.hovered) ? s.hl : "",
    resent ? s.resent : "",
    isCut ? s.cut : "",
  ].join(" ");
  const firstCut = isCut && !m.cutMarked;
  if (firstCut) m.cutMarked = true;
  const marker = firstCut ? (
    <span key={`c${key}`} class={s.cutMarker} data-testid="cut-marker">
      ✂ cut to fit the context window — the model never received this part ▾
    </span>
  ) : m.newFrom !== undefined && p.start === m.newFrom && m.newFrom > 0 ? (
    <span key={`m${key}`} class={s.newMarker} aria-label="new since the previous request" data-new-marker="">
      new since the previous request ▾
    </span>
  ) : null;
  const span = p.seg ? (
    <span
      key={key}
      class={cls}
      data-kind={p.seg.kind}
      data-role={p.seg.role}
      data-path={p.seg.path}
      title={p.seg.path ? `from ${p.seg.path}` : p.seg.kind === "special" ? "a special token" : "template text"}
    >
      <Highlighted text={text.slice(p.start, p.end)} />
    </span>
  ) : (
    <span key={key} class={cls}>
      <Highlighted text={text.slice(p.start, p.end)} />
    </span>
  );
  return marker ? [marker, span] : span;
}

export function PromptText({ text, segments, hovered, large, newFrom, cut = [], scrollOuter = true }: Props) {
  const ref = useRef<HTMLPreElement>(null);
  useOpenAtEnd(ref, [text, newFrom, scrollOuter], scrollOuter);
  // Cut into blocks of whole lines: the browser lays out only those in view, so a prompt of an agent's size
  // (tens of thousands of characters) does not hold the page while it opens.
  const blocks = useMemo(() => chunks(text, pieces(text, segments, newFrom)), [text, segments, newFrom]);
  const marks: Marks = { hovered: hovered.value, newFrom, cut, cutMarked: false };
  // A short prompt is drawn whole: skipping buys nothing there, and estimated heights would shift it under the mouse.
  const skip = text.length > SKIP_LAYOUT_CHARS;
  const parts = blocks.map((c) => (
    <span
      key={c.start}
      class={skip ? `${s.chunk} ${s.skip}` : s.chunk}
      style={skip ? { containIntrinsicBlockSize: `auto ${c.rows * LINE_EM}em` } : undefined}
    >
      {c.pieces.map((p) => pieceSpan(text, p, String(p.start), marks))}
    </span>
  ));

  function onOver(event: JSX.TargetedMouseEvent<HTMLPreElement>): void {
    const el = (event.target as HTMLElement).closest("[data-path]");
    hovered.value = el?.getAttribute("data-path") ?? null;
  }
  function onLeave(): void {
    hovered.value = null;
  }
  return (
    <pre
      ref={ref}
      class={`${s.prompt} ${large ? s.large : ""}`}
      onMouseOver={onOver}
      onMouseLeave={onLeave}
      data-testid="rendered-prompt"
    >
      {parts}
    </pre>
  );
}
