/**
 * A small client of the recorder's HTTP API for the CLI commands (traces, export, import, replay).
 * The recorder's URL comes from HOPSCOPE_URL (default http://127.0.0.1:7070, what `npm start` runs).
 */
import { ApiErrorSchema } from "@hopscope/shared/trace/api";
import type { z } from "zod";

export function recorderUrl(): string {
  // Empty counts as unset, as for every variable (nodekit/config).
  return (process.env.HOPSCOPE_URL || "http://127.0.0.1:7070").replace(/\/+$/, "");
}

export class RecorderError extends Error {
  /** The recorder's HTTP status, when it answered at all. */
  status?: number;
}

/** Calls the recorder and returns the body as text; errors say what to do next. */
export async function callText(path: string, init?: RequestInit): Promise<string> {
  return call(path, null, init);
}

/** Calls the recorder and validates the answer; errors say what to do next. */
export async function call<T extends z.ZodType>(path: string, schema: T, init?: RequestInit): Promise<z.infer<T>>;
export async function call(path: string, schema: null, init?: RequestInit): Promise<string>;
export async function call<T extends z.ZodType>(
  path: string,
  schema: T | null,
  init?: RequestInit,
): Promise<z.infer<T> | string> {
  const url = `${recorderUrl()}${path}`;
  let res: Response;
  try {
    res = await fetch(url, init);
  } catch (err) {
    throw new RecorderError(
      `no recorder answers at ${recorderUrl()} (${err instanceof Error ? err.message : String(err)}): run \`npm start\`, or set HOPSCOPE_URL`,
      { cause: err },
    );
  }
  const text = await res.text();
  if (!res.ok) {
    let message = text;
    try {
      const parsed = ApiErrorSchema.safeParse(JSON.parse(text));
      if (parsed.success) message = parsed.data.error;
    } catch {
      // Not JSON: the raw text is the most useful message we have.
    }
    const error = new RecorderError(`${init?.method ?? "GET"} ${path} → ${res.status}: ${message}`);
    error.status = res.status;
    throw error;
  }
  if (schema === null) return text;
  return schema.parse(JSON.parse(text)) as z.infer<T>;
}

/** Runs a command body, turning RecorderError into a message and exit code 1. */
export async function guarded(body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (err) {
    if (err instanceof RecorderError) {
      process.stderr.write(`hopscope: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}
