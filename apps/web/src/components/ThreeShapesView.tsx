/**
 * "Three shapes": one model turn side by side in Ollama's, OpenAI's and Anthropic's dialect — each request, each
 * response, how each carries the tool call (an object, a JSON string, a tool_use block) — above the one prompt
 * they all become. The lesson of the article's Part 1.3, with the recorded bytes where they exist. Full screen,
 * for a projector; Escape closes it. Every body is text, never HTML.
 */
import { useEffect, useRef } from "preact/hooks";
import type { JSX } from "preact";
import type { Shape, ThreeShapes } from "@hopscope/shared/trace/shapes";
import { useApp } from "./AppContext";
import { Highlighted } from "./Highlighted";
import { Loading } from "./Loading";
import s from "./ThreeShapesView.module.css";

function ShapeColumn({ shape }: { shape: Shape }) {
  return (
    <section class={s.col} data-testid={`shape-${shape.dialect}`} aria-label={`${shape.label} shape`}>
      <header class={s.colHead}>
        <h3>{shape.label}</h3>
        <code>POST {shape.path}</code>
        <span
          class={shape.source === "recorded" ? s.recorded : s.converted}
          title={
            shape.source === "recorded"
              ? `recorded bytes (exchange ${shape.exchangeId})`
              : "not recorded: written by hopscope with Ollama's conversion rules"
          }
        >
          {shape.source === "recorded" ? "recorded" : "converted"}
        </span>
      </header>
      {shape.toolCallShape ? (
        <p class={s.callShape} data-testid="tool-call-shape">
          <span>the tool call:</span> <code>{shape.toolCallShape}</code>
        </p>
      ) : null}
      <h4>Request</h4>
      <pre class={s.body}>
        <Highlighted text={shape.request} />
      </pre>
      <h4>Response</h4>
      <pre class={s.body}>
        {shape.response === null ? "(no response recorded)" : <Highlighted text={shape.response} />}
      </pre>
      <p class={shape.samePrompt ? s.same : s.differs}>
        {shape.samePrompt ? "✓ becomes exactly the prompt below" : "✗ renders a different prompt"}
      </p>
    </section>
  );
}

function Shapes({ v }: { v: ThreeShapes }) {
  const promptRef = useRef<HTMLPreElement>(null);
  // The turn's own part (the last messages) is at the end of the prompt; the tools block above is shared by all turns.
  useEffect(() => {
    const el = promptRef.current;
    if (!el) return;
    // Whenever the box is laid out or resized (a window resize, the zoom), show the end again.
    const observer = new ResizeObserver(() => {
      el.scrollTop = el.scrollHeight;
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [v.prompt]);
  return (
    <>
      <div class={s.cols}>
        {v.shapes.map((shape) => (
          <ShapeColumn key={shape.dialect} shape={shape} />
        ))}
      </div>
      <section class={s.prompt} aria-label="The one prompt">
        <h3>
          The one prompt they all become <small>(Ollama {v.ollamaVersion})</small>
        </h3>
        <pre ref={promptRef} class={s.body} data-testid="shared-prompt">
          <Highlighted text={v.prompt} />
        </pre>
      </section>
      {v.notes.map((n) => (
        <p key={n} class={s.note}>
          {n}
        </p>
      ))}
    </>
  );
}

export function ThreeShapesView() {
  const { shapes } = useApp();
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => closeRef.current?.focus(), []);
  function onKey(event: JSX.TargetedKeyboardEvent<HTMLDivElement>): void {
    if (event.key === "Escape") {
      event.stopPropagation();
      shapes.close();
    }
  }
  return (
    <div
      class={s.overlay}
      role="dialog"
      aria-modal="true"
      aria-label="The same turn in three shapes"
      onKeyDown={onKey}
      data-testid="three-shapes"
    >
      <header class={s.head}>
        <h2>Same idea, three shapes</h2>
        <p>
          OpenAI sends tool arguments as a JSON string, Ollama as a JSON object, Anthropic as tool_use blocks — and
          Ollama turns all three into one prompt.
        </p>
        <button ref={closeRef} type="button" class={s.close} onClick={() => shapes.close()} aria-label="Close (Escape)">
          Close <kbd>Esc</kbd>
        </button>
      </header>
      <Loading value={shapes.data.value} what="the three shapes" retry={shapes.retry}>
        {(v) => <Shapes v={v} />}
      </Loading>
    </div>
  );
}
