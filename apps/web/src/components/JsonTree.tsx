/**
 * A JSON value pretty-printed as text, with every value wrapped in a span carrying its JSON pointer,
 * so the prompt view can point at it. Strings are text nodes (never HTML).
 * The tree is drawn once per value: hovering moves one highlight class, never redraws it. A big body (a
 * coding agent's request: thousands of spans) is drawn a top-level member per block, each laid out only when
 * near the view, so opening it does not hold the page.
 */
import type { Signal } from "@preact/signals";
import { useSignalEffect } from "@preact/signals";
import type { ComponentChildren, JSX } from "preact";
import { useMemo, useRef } from "preact/hooks";
import s from "./JsonTree.module.css";

interface Props {
  value: unknown;
  hovered: Signal<string | null>;
}

/** Bodies longer than this (as pretty JSON) are laid out a top-level member at a time, as they come into view. */
const SKIP_LAYOUT_CHARS = 32_000;
/** The tree's line height (JsonTree.module.css), for the height of a block not drawn yet. */
const LINE_EM = 1.5;
/** The highlight's class (a CSS module's names are known at build time). */
const HL = s.hl ?? "hl";

function esc(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** `indent  "key": value,\n` (or an array item's `indent  value,\n`): one member of an object or array. */
function member(key: string | null, v: unknown, path: string, indent: string, last: boolean): ComponentChildren {
  return [
    indent,
    "  ",
    key === null ? null : [<span class={s.key}>{JSON.stringify(key)}</span>, ": "],
    render(v, path, `${indent}  `),
    last ? "\n" : ",\n",
  ];
}

function members(value: object): [string | null, unknown, string][] {
  return Array.isArray(value)
    ? value.map((v, i) => [null, v, String(i)])
    : Object.entries(value).map(([k, v]) => [k, v, esc(k)]);
}

function render(value: unknown, path: string, indent: string): ComponentChildren {
  let inner: ComponentChildren;
  if (value && typeof value === "object") {
    const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
    const list = members(value);
    inner =
      list.length === 0
        ? `${open}${close}`
        : [
            `${open}\n`,
            ...list.map(([k, v, p], i) => member(k, v, `${path}/${p}`, indent, i === list.length - 1)),
            indent,
            close,
          ];
  } else {
    inner = <span class={typeof value === "string" ? s.str : s.lit}>{JSON.stringify(value)}</span>;
  }
  return <span data-path={path}>{inner}</span>;
}

/** A big object or array: its brackets and each top-level member in a block of its own, skipped while off screen. */
function renderInBlocks(value: object): ComponentChildren {
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  const list = members(value);
  return (
    <span data-path="">
      <span class={s.block}>{`${open}\n`}</span>
      {list.map(([k, v, p], i) => {
        const rows = (JSON.stringify(v, null, 2) ?? "").split("\n").length + 1;
        return (
          <span class={`${s.block} ${s.skip}`} style={{ containIntrinsicBlockSize: `auto ${rows * LINE_EM}em` }}>
            {member(k, v, `/${p}`, "", i === list.length - 1)}
          </span>
        );
      })}
      <span class={s.block}>{close}</span>
    </span>
  );
}

function drawn(value: unknown): ComponentChildren {
  const big = value && typeof value === "object" && (JSON.stringify(value)?.length ?? 0) > SKIP_LAYOUT_CHARS;
  return big ? renderInBlocks(value) : render(value, "", "");
}

export function JsonTree({ value, hovered }: Props) {
  const ref = useRef<HTMLPreElement>(null);
  const tree = useMemo(() => drawn(value), [value]);
  const lit = useRef<Element | null>(null);
  // The hovered field highlighted, and brought into view when the hover came from the prompt.
  useSignalEffect(() => {
    const p = hovered.value;
    const root = ref.current;
    lit.current?.classList.remove(HL);
    lit.current = null;
    if (!p || !root) return;
    const el = root.querySelector(`[data-path="${CSS.escape(p)}"]`);
    el?.classList.add(HL);
    lit.current = el;
    if (!root.matches(":hover")) el?.scrollIntoView({ block: "nearest" });
  });
  function onOver(event: JSX.TargetedMouseEvent<HTMLPreElement>): void {
    const el = (event.target as HTMLElement).closest("[data-path]");
    const p = el?.getAttribute("data-path");
    hovered.value = p ? p : null;
  }
  function onLeave(): void {
    hovered.value = null;
  }
  return (
    <pre class={s.tree} ref={ref} onMouseOver={onOver} onMouseLeave={onLeave} data-testid="request-json">
      {tree}
    </pre>
  );
}
