/**
 * HTTP client for the recorder's API (docs/architecture.md, "Recorder HTTP API"). Same origin: the
 * proxy serves this UI, and in dev Vite proxies /api. Every response is validated with its shared zod
 * schema; an error response's `{ error }` message is surfaced as is, because it says how to fix it.
 */
import type { z } from "zod";
import { ApiErrorSchema } from "@hopscope/shared/trace/api";
import { dataSource } from "./source";
import { formatZodIssues } from "@hopscope/shared/json/zod-error";

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/**
 * A read the data source no longer makes: the audience session it read through has ended, so its join code
 * is retired. Not a failure to report; the viewer already says the speaker ended the session.
 */
export class SessionEndedError extends ApiError {
  constructor(what: string) {
    super(`${what}: the speaker ended the session`, 410);
    this.name = "SessionEndedError";
  }
}

async function check(res: Response, what: string): Promise<Response> {
  if (res.ok) return res;
  const text = await res.text();
  let message = `${what} failed: HTTP ${res.status}`;
  try {
    const parsed = ApiErrorSchema.safeParse(JSON.parse(text));
    if (parsed.success) message = `${what} failed: ${parsed.data.error}`;
  } catch (cause) {
    // Not JSON (a proxy or crash page): keep the status line, and the start of the text for context.
    message = `${message} ${text.slice(0, 200)}`.trim();
    console.warn(`non-JSON error body from ${what}`, cause);
  }
  throw new ApiError(message, res.status);
}

export function validate<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new Error(
      `${what} returned an unexpected shape (${formatZodIssues(parsed.error, { whole: "the response" })}). Are the recorder and the UI from the same build?`,
    );
  return parsed.data;
}

/** A GET that has not answered in this long is reported (with a way to retry), never left spinning. */
export const GET_TIMEOUT_MS = 20_000;

/** GET from the installed data source (the recorder by default), validated with `schema`. */
export function getJson<T>(path: string, schema: z.ZodType<T>): Promise<T> {
  return dataSource()?.getJson(path, schema) ?? httpGetJson(path, schema);
}

/** A change sent to the installed data source (the recorder by default). */
export function send<T>(
  method: string,
  path: string,
  body: unknown,
  schema: z.ZodType<T> | null,
): Promise<T | undefined> {
  return dataSource()?.send(method, path, body, schema) ?? httpSend(method, path, body, schema);
}

export async function httpGetJson<T>(path: string, schema: z.ZodType<T>): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, { signal: AbortSignal.timeout(GET_TIMEOUT_MS) });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === "TimeoutError") {
      throw new Error(
        `GET ${path} did not answer within ${GET_TIMEOUT_MS / 1000} s: the recorder may be busy; try again`,
        { cause },
      );
    }
    throw new Error(`GET ${path} failed: ${String(cause)}. Is the recorder (npm start) running?`, { cause });
  }
  await check(res, `GET ${path}`);
  return validate(schema, await res.json(), `GET ${path}`);
}

/** Sends JSON (or a raw file body) and validates the JSON answer; `schema` null for 204 answers. */
export async function httpSend<T>(
  method: string,
  path: string,
  body: unknown,
  schema: z.ZodType<T> | null,
): Promise<T | undefined> {
  const init: RequestInit = { method };
  if (body instanceof Blob) {
    // A trace file (HAR or hopscope) is JSON; a .har file's own type is empty, which the API's guard refuses.
    init.body = body;
    init.headers = { "content-type": "application/json" };
  } else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { "content-type": "application/json" };
  }
  const res = await check(await fetch(path, init), `${method} ${path}`);
  if (!schema) return undefined;
  return validate(schema, await res.json(), `${method} ${path}`);
}
