/**
 * What the model saw, for a request in any dialect: the dialect body → the native request Ollama builds from it
 * → the rendered prompt, each segment linked both to the native field it printed (`path`) and to the field of
 * the client's own JSON that field came from (`clientPath`). The three layers are what the prompt view shows.
 */
import { type RenderOptions, type RenderResult, type Segment, renderChat, renderGenerate } from "../prompt/render";
import { toNative } from "./convert";
import { DialectError } from "./dialect-error";
import type { Dialect } from "./dialect";
import type { Converted } from "./native";

export interface DialectSegment extends Segment {
  /** JSON pointer into the client's request body (absent for text no field produced: template, model SYSTEM). */
  clientPath?: string;
}

export interface DialectRender extends Omit<RenderResult, "segments"> {
  segments: DialectSegment[];
  converted: Converted;
}

/** Throws DialectError for a body Ollama refuses, RenderInputError for a native request it cannot render. */
export function renderDialect(d: Dialect, body: unknown, opts: RenderOptions = {}): DialectRender {
  const converted = toNative(d, body, opts.ollamaVersion ? { ollamaVersion: opts.ollamaVersion } : {});
  // The handler's first check, after the middleware's: ChatHandler 400, GenerateHandler the not-found 404.
  if (typeof converted.native.model !== "string" || converted.native.model === "") {
    throw converted.endpoint === "/api/chat"
      ? new DialectError(400, "model is required")
      : new DialectError(404, "model '' not found");
  }
  const r =
    converted.endpoint === "/api/chat" ? renderChat(converted.native, opts) : renderGenerate(converted.native, opts);
  const segments = r.segments.map((s) => {
    if (s.path === undefined || !s.path.startsWith("/")) return s;
    const clientPath = converted.paths.map(s.path);
    return clientPath === null ? s : { ...s, clientPath };
  });
  return { ...r, segments, converted };
}
