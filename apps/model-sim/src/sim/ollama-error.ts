/**
 * An error Ollama would answer with `{"error": message}` and this status. Routes throw it; the app's
 * one onError turns it into the body (see app.ts).
 */
export class OllamaError extends Error {
  constructor(
    readonly status: 400 | 404 | 499 | 500,
    message: string,
  ) {
    super(message);
    this.name = "OllamaError";
  }
}

/** `model 'x' not found`: what ChatHandler, GenerateHandler and ShowHandler send for a model not pulled. */
export function modelNotFound(model: string): OllamaError {
  return new OllamaError(404, `model '${model}' not found`);
}
