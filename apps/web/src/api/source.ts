/**
 * Where the timeline's data comes from. The live UI talks to the recorder (HTTP API + `/ws` feed); a
 * shared trace page reads an embedded trace (static-source.ts); the audience viewer reads the audience
 * listener's read-only API. Models call `getJson` / `send` (http.ts) and the ConnectionModel calls
 * `openFeed` (feed.ts) as before; those dispatch to the source installed here, once, by the entry point
 * before any model is built.
 */
import type { z } from "zod";
import type { ClientFrame, ServerFrame } from "@hopscope/shared/trace/schemas";

export interface FeedHandlers {
  onOpen(): void;
  onFrame(frame: ServerFrame): void;
  /** A frame that failed validation: shown to the user, never silently dropped. */
  onBadFrame(message: string): void;
  onClose(reason: string): void;
}

export interface Feed {
  send(frame: ClientFrame): void;
  close(): void;
}

export interface DataSource {
  /** "live": the recorder's own UI; "file": a trace embedded in the page; "audience": a viewer in a room. */
  readonly kind: "live" | "file" | "audience";
  getJson<T>(path: string, schema: z.ZodType<T>): Promise<T>;
  send<T>(method: string, path: string, body: unknown, schema: z.ZodType<T> | null): Promise<T | undefined>;
  openFeed(url: string, handlers: FeedHandlers): Feed;
}

let installed: DataSource | null = null;

export function installDataSource(source: DataSource): void {
  installed = source;
}

/** The installed source, or null for the default (the recorder over HTTP). */
export function dataSource(): DataSource | null {
  return installed;
}

/** True when the page cannot change anything (a shared file, an audience viewer): edit controls hide. */
export function isReadOnly(): boolean {
  return installed !== null && installed.kind !== "live";
}
