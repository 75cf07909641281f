/** The recorder API's one error handler: every failure becomes `{ error }` saying what was wrong and how to fix it. */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { ZodError } from "zod";
import { TraceImportError } from "../export/import-error";
import { CursorError } from "../store/trace-store";
import type { Logger } from "../logger";

export function formatZodError(err: ZodError): string {
  return err.issues.map((i) => `${i.path.length > 0 ? i.path.join(".") : "body"}: ${i.message}`).join("; ");
}

export function errorHandler(logger: Logger) {
  return (err: Error, c: Context) => {
    if (err instanceof ZodError) return c.json({ error: formatZodError(err) }, 400);
    if (err instanceof TraceImportError || err instanceof CursorError) return c.json({ error: err.message }, 400);
    if (err instanceof HTTPException) return c.json({ error: err.message }, err.status);
    logger.error({ err, path: c.req.path }, "request failed");
    return c.json({ error: `internal error: ${err.message}` }, 500);
  };
}

/** The JSON body of a request, or a 400 that says the body must be JSON. */
export async function jsonBody(c: Context): Promise<unknown> {
  const text = await c.req.text();
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new HTTPException(400, { message: `the request body must be JSON (${(err as Error).message})`, cause: err });
  }
}

export function notFound(what: string): never {
  throw new HTTPException(404, { message: what });
}
