/**
 * Workshop lessons of the stand-in model: each one makes it repeat one mistake real small models make,
 * so the wire traffic shows what that mistake looks like. A host picks one per request with the
 * `x-hopscope-lesson` header (LESSON_HEADER in ./schemas), or a model name suffix
 * `qwen2.5:7b+lesson=<name>`; a real Ollama ignores the header and rejects the suffix.
 * What each lesson does is documented in apps/model-sim/README.md.
 */
import { z } from "zod";

export const LESSONS = ["write-instead-of-append", "missing-argument", "unknown-tool", "loop", "slow", "cut"] as const;
export const LessonSchema = z.enum(LESSONS, {
  error: (issue) => `unknown lesson ${JSON.stringify(issue.input)}: use one of ${LESSONS.join(", ")}`,
});
export type Lesson = z.infer<typeof LessonSchema>;

/** One line per lesson, for UIs and CLIs that offer them (details: apps/model-sim/README.md). */
export const LESSON_NOTES: Record<Lesson, string> = {
  "write-instead-of-append": "Uses write for an add: the notes file is replaced and earlier notes are lost.",
  "missing-argument": "Calls the right tool without its argument, gets a tool error, and fixes the call.",
  "unknown-tool":
    "Calls a tool the MCP server does not have: a protocol error if the host declared it, else Ollama drops the call and the answer is empty.",
  loop: "Keeps calling read after every result until the host's step guard stops it.",
  slow: "Loads for seconds on every request and writes a few tokens per second.",
  cut: "Its answer in words stalls after a few tokens, then the stream ends with no final done chunk.",
};

/** The separator of the model-name form, `qwen2.5:7b+lesson=loop`. */
export const LESSON_MODEL_SUFFIX = "+lesson=";

/**
 * Split `qwen2.5:7b+lesson=loop` into the model name and the raw lesson text (unvalidated: the caller
 * decides how to report a bad one). Names without the suffix come back unchanged with `lesson: null`.
 */
export function splitLessonSuffix(model: string): { model: string; lesson: string | null } {
  const at = model.indexOf(LESSON_MODEL_SUFFIX);
  if (at === -1) return { model, lesson: null };
  return { model: model.slice(0, at), lesson: model.slice(at + LESSON_MODEL_SUFFIX.length) };
}
