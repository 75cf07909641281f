/** The recorder API's one error handler: every failure becomes `{ error }` saying what was wrong and how to fix it. */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { ZodError } from "zod";
import { readBodyCapped } from "@hopscope/nodekit/body";
import { parseJson } from "@hopscope/shared/json/parse";
import { TraceImportError } from "../export/import-error";
import { CursorError } from "./cursor";
import type { Logger } from "../../logger";
import { formatZodIssues } from "@hopscope/shared/json/zod-error";

export function errorHandler(logger: Logger) {
  return (err: Error, c: Context) => {
    if (err instanceof ZodError) return c.json({ error: formatZodIssues(err, { whole: "body" }) }, 400);
    if (err instanceof TraceImportError || err instanceof CursorError) return c.json({ error: err.message }, 400);
    if (err instanceof HTTPException) return c.json({ error: err.message }, err.status);
    logger.error({ err, path: c.req.path }, "request failed");
    return c.json({ error: `internal error: ${err.message}` }, 500);
  };
}

/** Requests the UI and CLI send (a question, a new name) are small; a trace file has its own limit. */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

/** The body as text, or a 413 saying how large it may be (`limitName`: the setting that raises it). */
export async function cappedText(c: Context, maxBytes: number, limitName?: string): Promise<string> {
  const bytes = await readBodyCapped(c.req.raw, maxBytes);
  if (bytes === null) {
    // The rest of the body is still on the socket unread: no keep-alive reuse of this connection.
    c.header("Connection", "close");
    const raise = limitName ? ` (raise it with ${limitName})` : "";
    throw new HTTPException(413, {
      message: `the request body is larger than ${maxBytes} bytes, the limit${raise}; nothing was stored`,
    });
  }
  return new TextDecoder().decode(bytes);
}

/** The JSON body of a request (depth- and size-limited), or a 400/413 that says what is wrong. */
export async function jsonBody(c: Context, maxBytes = MAX_JSON_BODY_BYTES, limitName?: string): Promise<unknown> {
  const text = await cappedText(c, maxBytes, limitName);
  try {
    return parseJson(text);
  } catch (err) {
    throw new HTTPException(400, { message: `the request body must be JSON (${(err as Error).message})`, cause: err });
  }
}

export function notFound(what: string): never {
  throw new HTTPException(404, { message: what });
}
