/** The page cursor of GET /api/traces: opaque to clients, `createdAt:id` of the last trace of the page. */
import type { PageAfter } from "../../link/calls";

export function parseCursor(cursor: string): PageAfter {
  const i = cursor.indexOf(":");
  const createdAt = Number(cursor.slice(0, i));
  if (i === -1 || !Number.isFinite(createdAt))
    throw new CursorError(`cursor "${cursor}" is not one this API returned; pass nextCursor from the previous page`);
  return { createdAt, id: cursor.slice(i + 1) };
}

export class CursorError extends Error {}
