/**
 * `POST /api/ingest/stdio`: events from the stdio tap (`hopscope wrap`), a StdioBatch
 * (@hopscope/shared/trace/stdio-ingest). Like the rest of /api it is for this machine only (the local
 * guard in app.ts: loopback Host, no foreign Origin); it also needs `Content-Type: application/json`, so a
 * web page cannot send it as a "simple" cross-site request. Bodies are bounded in size and JSON depth.
 */
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { StdioBatchSchema } from "@hopscope/shared/trace/stdio-ingest";
import type { StdioIngest } from "../ingest/stdio-ingest";
import { formatZodIssues } from "@hopscope/shared/json/zod-error";

/**
 * The largest batch taken: room for a few frames of MAX_BODY_BYTES each, JSON-escaped (64 MiB at the default
 * 4 MiB). The wrapper keeps batches below it, and splits one the recorder refuses.
 */
export function ingestCap(maxBodyBytes: number): number {
  return 16 * maxBodyBytes;
}
/** A batch is four levels deep; anything much deeper is not one. */
const MAX_DEPTH = 16;

export function ingestRoutes(ingest: StdioIngest, maxBatchBytes: number) {
  return new Hono().post("/stdio", async (c) => {
    const type = c.req.header("content-type") ?? "";
    if (!/^application\/json\s*(;|$)/i.test(type)) {
      throw new HTTPException(415, {
        message: `send the batch with Content-Type: application/json (got ${type ? `"${type}"` : "none"})`,
      });
    }
    const text = await readCapped(c.req.raw, maxBatchBytes);
    if (jsonDepth(text) > MAX_DEPTH)
      throw new HTTPException(400, {
        message: `the batch is nested deeper than ${MAX_DEPTH} levels; it is not a stdio batch`,
      });
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (err) {
      throw new HTTPException(400, {
        message: `the request body must be JSON (${(err as Error).message})`,
        cause: err,
      });
    }
    const batch = StdioBatchSchema.safeParse(json);
    if (!batch.success)
      throw new HTTPException(400, {
        message: `not a stdio batch: ${formatZodIssues(batch.error, { whole: "body" })}`,
      });
    return c.json({ recorded: await ingest.ingest(batch.data) });
  });
}

async function readCapped(req: Request, max: number): Promise<string> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  const tooBig = () => new HTTPException(413, { message: `the batch is over ${max} bytes; send smaller batches` });
  if (declared > max) throw tooBig();
  if (!req.body) return "";
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const part of req.body as unknown as AsyncIterable<Uint8Array>) {
    size += part.length;
    if (size > max) throw tooBig();
    parts.push(part);
  }
  return Buffer.concat(parts, size).toString("utf8");
}

/** The deepest nesting of arrays and objects in a JSON text, strings skipped (counted before parsing). */
function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c) i++;
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x7b || ch === 0x5b) max = Math.max(max, ++depth);
    else if (ch === 0x7d || ch === 0x5d) depth--;
  }
  return max;
}
