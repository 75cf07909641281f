/**
 * A JSON value pretty-printed as text, with every value wrapped in a span carrying its JSON pointer,
 * so the prompt view can point at it. Strings are text nodes (never HTML).
 */
import type { Signal } from "@preact/signals";
import { useSignalEffect } from "@preact/signals";
import type { ComponentChildren, JSX } from "preact";
import { useRef } from "preact/hooks";
import s from "./JsonTree.module.css";

interface Props {
  value: unknown;
  hovered: Signal<string | null>;
}

function esc(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

function render(value: unknown, path: string, indent: string, hovered: string | null): ComponentChildren {
  let inner: ComponentChildren;
  if (Array.isArray(value)) {
    inner =
      value.length === 0
        ? "[]"
        : [
            "[\n",
            ...value.map((v, i) => [
              indent,
              "  ",
              render(v, `${path}/${i}`, `${indent}  `, hovered),
              i < value.length - 1 ? ",\n" : "\n",
            ]),
            indent,
            "]",
          ];
  } else if (value && typeof value === "object") {
    const entries = Object.entries(value);
    inner =
      entries.length === 0
        ? "{}"
        : [
            "{\n",
            ...entries.map(([k, v], i) => [
              indent,
              "  ",
              <span class={s.key}>{JSON.stringify(k)}</span>,
              ": ",
              render(v, `${path}/${esc(k)}`, `${indent}  `, hovered),
              i < entries.length - 1 ? ",\n" : "\n",
            ]),
            indent,
            "}",
          ];
  } else {
    inner = <span class={typeof value === "string" ? s.str : s.lit}>{JSON.stringify(value)}</span>;
  }
  return (
    <span data-path={path} class={path !== "" && path === hovered ? s.hl : undefined}>
      {inner}
    </span>
  );
}

export function JsonTree({ value, hovered }: Props) {
  const ref = useRef<HTMLPreElement>(null);
  // Bring the field that a hovered prompt segment came from into view.
  useSignalEffect(() => {
    const p = hovered.value;
    const root = ref.current;
    if (!p || !root || root.matches(":hover")) return;
    root.querySelector(`[data-path="${CSS.escape(p)}"]`)?.scrollIntoView({ block: "nearest" });
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
      {render(value, "", "", hovered.value)}
    </pre>
  );
}
