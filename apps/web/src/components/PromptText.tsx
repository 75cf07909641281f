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
}

export function relatedPaths(segmentPath: string | undefined, hovered: string | null): boolean {
  if (!segmentPath || !hovered) return false;
  return segmentPath === hovered || segmentPath.startsWith(`${hovered}/`) || hovered.startsWith(`${segmentPath}/`);
}

export function PromptText({ text, segments, hovered, large, newFrom }: Props) {
  const ref = useRef<HTMLPreElement>(null);
  // A resent history is long and dimmed: open the prompt where the new part starts.
  useEffect(() => {
    ref.current?.querySelector("[data-new-marker]")?.scrollIntoView({ block: "start" });
  }, [text, newFrom]);
  const parts = pieces(text, segments, newFrom).map((p, i) => {
    const resent = newFrom !== undefined && p.end <= newFrom;
    const cls = [p.seg ? s.seg : "", p.seg && relatedPaths(p.seg.path, hovered.value) ? s.hl : "", resent ? s.resent : ""].join(" ");
    const marker = newFrom !== undefined && p.start === newFrom && newFrom > 0 ? (
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
    <pre ref={ref} class={`${s.prompt} ${large ? s.large : ""}`} onMouseOver={onOver} onMouseLeave={onLeave} data-testid="rendered-prompt">
      {parts}
    </pre>
  );
}
