/**
 * Which model a request names, and which lesson it asks for. The stand-in has exactly one model
 * "pulled", qwen2.5:7b; like Ollama it matches names case-insensitively and with or without the
 * default registry and namespace (`registry.ollama.ai/library/qwen2.5:7b`). Anything else is the 404
 * Ollama sends for a model that is not pulled.
 */
import { LessonSchema, splitLessonSuffix, type Lesson } from "@hopscope/shared/ollama/lessons";
import { QWEN25_MODEL } from "@hopscope/shared/ollama/qwen25-facts";
import { BUILTIN_RENDERER_MODEL } from "./builtin-renderer";
import { OllamaError, modelNotFound } from "./ollama-error";
import { formatZodIssues } from "@hopscope/shared/json/zod-error";

export interface ResolvedModel {
  /** The name as the client sent it: Ollama echoes `req.Model` in every response. */
  requested: string;
  lesson: Lesson | null;
  /** The model Ollama renders with a built-in renderer (only when SIM_BUILTIN_RENDERER_MODEL is on). */
  builtinRenderer?: true;
}

function canonical(name: string): string {
  return name.toLowerCase().replace(/^(?:registry\.ollama\.ai\/)?(?:library\/)?/, "");
}

function parseLesson(raw: string, where: string): Lesson {
  const parsed = LessonSchema.safeParse(raw.trim());
  if (!parsed.success) throw new OllamaError(400, formatZodIssues(parsed.error, { whole: where, max: 1 }));
  return parsed.data;
}

/**
 * @param headerLesson the `x-hopscope-lesson` header, if any
 * @throws OllamaError 404 `model 'x' not found`, or 400 for a bad or conflicting lesson
 */
export function resolveModel(
  requested: string,
  headerLesson: string | undefined,
  builtinRenderer = false,
): ResolvedModel {
  if (builtinRenderer && canonical(requested) === BUILTIN_RENDERER_MODEL.name)
    return { requested, lesson: null, builtinRenderer: true };
  const { model, lesson: suffix } = splitLessonSuffix(requested);
  if (canonical(model) !== QWEN25_MODEL) throw modelNotFound(requested);
  const fromName = suffix === null ? null : parseLesson(suffix, `model name ${JSON.stringify(requested)}`);
  const fromHeader =
    headerLesson === undefined || headerLesson.trim() === ""
      ? null
      : parseLesson(headerLesson, "x-hopscope-lesson header");
  if (fromName && fromHeader && fromName !== fromHeader) {
    throw new OllamaError(
      400,
      `two different lessons asked for: ${fromName} (model name) and ${fromHeader} (x-hopscope-lesson header); send one`,
    );
  }
  return { requested, lesson: fromName ?? fromHeader };
}
