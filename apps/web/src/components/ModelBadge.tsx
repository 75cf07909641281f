/** Which model answers (a real Ollama or hopscope's stand-in) and which workshop lesson is on. */
import { useApp } from "./AppContext";
import s from "./ModelBadge.module.css";

export function ModelBadge() {
  const { ask } = useApp();
  const c = ask.config.value;
  if (!c) {
    return (
      <span
        class={`${s.badge} ${s.unknown}`}
        title={ask.configError.value ?? "Asking the recorder which model is behind it…"}
      >
        model: ?
      </span>
    );
  }
  const label = c.simulated === true ? "stand-in model" : c.simulated === false ? "real Ollama" : "model not reachable";
  const title =
    c.simulated === true
      ? "The model server is hopscope's stand-in (apps/model-sim): deterministic answers, no GPU. Its responses carry x-hopscope-simulated: 1."
      : c.simulated === false
        ? `A real Ollama${c.ollamaVersion ? ` ${c.ollamaVersion}` : ""} at ${c.modelTapUrl}'s upstream.`
        : "The recorder could not reach the model server yet.";
  return (
    <span class={s.wrap}>
      <span
        class={`${s.badge} ${c.simulated === true ? s.sim : c.simulated === false ? s.real : s.unknown}`}
        title={title}
        data-testid="model-badge"
      >
        {label}
        {c.ollamaVersion && c.simulated === false ? ` ${c.ollamaVersion}` : ""}
      </span>
      {c.lesson ? (
        <span
          class={`${s.badge} ${s.lesson}`}
          title="A workshop lesson is on: the stand-in model misbehaves on purpose"
          data-testid="lesson-badge"
        >
          lesson: {c.lesson}
        </span>
      ) : null}
    </span>
  );
}
