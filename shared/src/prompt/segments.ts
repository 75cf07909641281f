/**
 * Segments: ranges of the rendered prompt that say where each part came from. They tile the text exactly (no
 * gaps, no overlaps, in order). Precedence, from the outside in: a printed value's provenance (system text, tool
 * definition, message content, tool call, tool result) wins over everything; inside literal template text,
 * special tokens (`<|…|>`) are cut out as "special" and the rest is "template". Text that a template computes
 * without a known source (printf output, the "\n\n" Ollama puts between merged messages, `<no value>`) is
 * "template" too.
 *
 * Paths are JSON pointers into the request at the value that was printed: `/messages/N/content` (N counts the
 * request's own messages, before the model SYSTEM is prepended and before merging), `/tools/N/function` when a
 * template prints `.Function` (qwen2.5) or `/tools/N` when it prints the whole tool (llama3.1),
 * `/messages/N/tool_calls/K/function/name` and `…/arguments` for tool calls, and "model SYSTEM" for the
 * model's default system text, which is not in the request.
 */
import type { OutputSink } from "./gotemplate/exec";
import type { Provenance, ProvSpan } from "./gotemplate/values";

export type SegmentKind = "template" | "special" | "system" | "tool" | "message" | "tool-call" | "tool-result";

export interface Segment {
  start: number;
  end: number;
  kind: SegmentKind;
  role?: string;
  messageIndex?: number;
  toolIndex?: number;
  toolCallIndex?: number;
  path?: string;
}

/** Chat-template control tokens written as `<|name|>` (Qwen's <|im_start|>, Llama's <|eot_id|>, …). */
const SPECIAL = /<\|[A-Za-z0-9_]+\|>/g;

export class SegmentBuilder implements OutputSink {
  text = "";
  readonly segments: Segment[] = [];
  /** Message indices whose content contains special-token text (worth a note: the runner parses them). */
  readonly specialInContent = new Set<number>();

  literal(s: string): void {
    let last = 0;
    for (const m of s.matchAll(SPECIAL)) {
      this.push(s.slice(last, m.index), { kind: "template" });
      this.push(m[0], { kind: "special" }, false);
      last = m.index + m[0].length;
    }
    this.push(s.slice(last), { kind: "template" });
  }

  value(s: string, prov: Provenance | undefined, spans: ProvSpan[] | undefined): void {
    if (!spans || spans.length === 0) {
      this.push(s, prov ?? { kind: "template" });
      return;
    }
    let pos = 0;
    for (const sp of [...spans].sort((a, b) => a.start - b.start)) {
      if (sp.start > pos) this.push(s.slice(pos, sp.start), prov ?? { kind: "template" });
      this.push(s.slice(Math.max(pos, sp.start), sp.end), sp.prov);
      pos = Math.max(pos, sp.end);
    }
    if (pos < s.length) this.push(s.slice(pos), prov ?? { kind: "template" });
  }

  private push(s: string, prov: Provenance | { kind: "special" }, mergeable = true): void {
    if (s.length === 0) return;
    const seg = segmentOf(prov, this.text.length, this.text.length + s.length);
    if (seg.kind !== "special" && seg.kind !== "template" && seg.messageIndex !== undefined && SPECIAL.test(s)) {
      this.specialInContent.add(seg.messageIndex);
    }
    SPECIAL.lastIndex = 0;
    this.text += s;
    const prev = this.segments[this.segments.length - 1];
    if (mergeable && prev && prev.kind !== "special" && sameSource(prev, seg)) {
      prev.end = seg.end;
      return;
    }
    this.segments.push(seg);
  }
}

/** A segment with the provenance's fields that are set (an unset one is left out, not undefined). */
function segmentOf(prov: Provenance | { kind: "special" }, start: number, end: number): Segment {
  const seg: Segment = { start, end, kind: prov.kind };
  if ("role" in prov && prov.role !== undefined) seg.role = prov.role;
  if ("messageIndex" in prov && prov.messageIndex !== undefined) seg.messageIndex = prov.messageIndex;
  if ("toolIndex" in prov && prov.toolIndex !== undefined) seg.toolIndex = prov.toolIndex;
  if ("toolCallIndex" in prov && prov.toolCallIndex !== undefined) seg.toolCallIndex = prov.toolCallIndex;
  if ("path" in prov && prov.path !== undefined) seg.path = prov.path;
  return seg;
}

function sameSource(a: Segment, b: Segment): boolean {
  return (
    a.kind === b.kind &&
    a.role === b.role &&
    a.messageIndex === b.messageIndex &&
    a.toolIndex === b.toolIndex &&
    a.toolCallIndex === b.toolCallIndex &&
    a.path === b.path
  );
}
