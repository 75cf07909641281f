/**
 * Rendered prompt text split into its segments. Each segment is a text node in a span (never HTML),
 * coloured by kind and role, and carries the JSON pointer of the request field it came from.
 */
import type { Signal } from "@preact/signals";
import type { JSX } from "preact";
import { useEffect, useRef } from "preact/hooks";
import type { ExchangeViews } from "@hopscope/shared/trace/views";
import { pieces } from "../models/prompt-pieces";
import { Highlighted } from "./Highlighted";
import s from "./PromptText.module.css";

type Segment = NonNullable<ExchangeViews["prompt"]>["segments"][number];

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

export function PromptText({ text, segments, hovered, large, newFrom, cut = [], scrollOuter = true }: Props) {
  const ref = useRef<HTMLPreElement>(null);
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
    function place(): void {
      scrollBoxes(pre!).forEach((box, i) => {
        const t = target!.getBoundingClientRect();
        const b = box.getBoundingClientRect();
        if (i === 0) box.scrollTop = marker ? box.scrollTop + t.top - b.top - lead : box.scrollHeight;
        else if (scrollOuter && (t.top < b.top || t.bottom > b.bottom)) box.scrollTop += t.top - b.top - lead;
      });
    }
    place();
    // Content above may still be loading (the token budget) and shrink the box: keep the end in view until
    // the reader scrolls by themselves.
    const ro = new ResizeObserver(place);
    ro.observe(pre);
    if (pre.parentElement) ro.observe(pre.parentElement);
    const stop = (): void => ro.disconnect();
    for (const ev of ["wheel", "pointerdown", "touchstart", "keydown"])
      pre.parentElement?.addEventListener(ev, stop, { once: true, passive: true });
    return stop;
  }, [text, newFrom, scrollOuter]);
  const cutAt = (at: number) => cut.some((r) => at >= r.start && at < r.end);
  let cutMarked = false;
  const parts = pieces(text, segments, newFrom).map((p, i) => {
    const resent = newFrom !== undefined && p.end <= newFrom;
    const isCut = cutAt(p.start);
    const cls = [
      p.seg ? s.seg : "",
      p.seg && relatedPaths(p.seg.path, hovered.value) ? s.hl : "",
      resent ? s.resent : "",
      isCut ? s.cut : "",
    ].join(" ");
    const firstCut = isCut && !cutMarked;
    if (firstCut) cutMarked = true;
    const marker = firstCut ? (
      <span key={`c${i}`} class={s.cutMarker} data-testid="cut-marker">
        ✂ cut to fit the context window — the model never received this part ▾
      </span>
    ) : newFrom !== undefined && p.start === newFrom && newFrom > 0 ? (
      <span key={`m${i}`} class={s.newMarker} aria-label="new since the previous request" data-new-marker="">
        new since the previous request ▾
      </span>
    ) : null;
    const span = p.seg ? (
      <span
        key={i}
        class={cls}
        data-kind={p.seg.kind}
        data-role={p.seg.role}
        data-path={p.seg.path}
        title={p.seg.path ? `from ${p.seg.path}` : p.seg.kind === "special" ? "a special token" : "template text"}
      >
        <Highlighted text={text.slice(p.start, p.end)} />
      </span>
    ) : (
      <span key={i} class={cls}>
        <Highlighted text={text.slice(p.start, p.end)} />
      </span>
    );
    return marker ? [marker, span] : span;
  });

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
