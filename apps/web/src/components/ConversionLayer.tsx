/**
 * The conversion as a visible layer, above "what the model saw" for a request in another dialect: what the
 * client sent (OpenAI or Anthropic JSON) → what Ollama made of it (the native request its middleware builds)
 * → what the model saw (the prompt below). The native request is shown as a linked JSON tree; hovering one of
 * its fields highlights the client field it came from.
 */
import { type Signal, useSignal } from "@preact/signals";
import type { ConversionView } from "@hopscope/shared/trace/views";
import { PathMap } from "@hopscope/shared/dialects/path-map";
import { JsonTree } from "./JsonTree";
import s from "./ConversionLayer.module.css";

export function ConversionLayer({
  c,
  hovered,
  path,
}: {
  c: ConversionView;
  hovered: Signal<string | null>;
  path: string;
}) {
  const nativeHovered = useSignal<string | null>(null);
  const native = JSON.parse(c.native) as unknown;
  const paths = c.paths.reduce((m, p) => m.add(p.native, p.dialect), new PathMap());
  function onOver(): void {
    hovered.value = nativeHovered.value ? paths.map(nativeHovered.value) : null;
  }
  return (
    <section class={s.layer} aria-label="How Ollama converted this request" data-testid="conversion-layer">
      <ol class={s.steps}>
        <li>
          <b>What the client sent</b>
          <span>
            {c.label} · <code>POST {path}</code>
          </span>
        </li>
        <li>
          <b>What Ollama made of it</b>
          <span>
            a native <code>{c.endpoint}</code> request
          </span>
        </li>
        <li>
          <b>What the model saw</b>
          <span>the prompt below, rendered from that request</span>
        </li>
      </ol>
      <details class={s.native}>
        <summary>
          Show the native {c.endpoint} request Ollama built ({c.paths.length} fields traced back to the client's JSON)
        </summary>
        <div onMouseOver={onOver} onMouseLeave={() => (hovered.value = null)} data-testid="native-request">
          <JsonTree value={native} hovered={nativeHovered} />
        </div>
      </details>
    </section>
  );
}
