/**
 * One look at the notes file: what is there now, read without following the MCP server's rules (the
 * recorder shows what is on disk, even what the server would refuse). Compared by `sameState` to tell
 * a change from a re-read.
 */
import { readFile, stat } from "node:fs/promises";
import type { Body } from "@hopscope/shared/trace/schemas";
import { toStoredBody } from "../../link/stored-body";

export type FileState =
  | { kind: "file"; bytes: Buffer }
  | { kind: "missing" }
  | { kind: "not-a-file"; what: string }
  | { kind: "too-large"; size: number }
  | { kind: "unreadable"; message: string };

/** What the file is now; never throws (every failure is a state the lane can show). */
export async function readFileState(file: string, maxBytes: number): Promise<FileState> {
  try {
    const st = await stat(file);
    if (!st.isFile()) return { kind: "not-a-file", what: st.isDirectory() ? "a directory" : "not a regular file" };
    if (st.size > maxBytes) return { kind: "too-large", size: st.size };
    const bytes = await readFile(file);
    // It may have grown between stat and read.
    return bytes.length > maxBytes ? { kind: "too-large", size: bytes.length } : { kind: "file", bytes };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { kind: "missing" };
    if (code === "EISDIR") return { kind: "not-a-file", what: "a directory" };
    return { kind: "unreadable", message: (err as Error).message };
  }
}

export function sameState(a: FileState, b: FileState): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === "file" && b.kind === "file") return a.bytes.equals(b.bytes);
  if (a.kind === "too-large" && b.kind === "too-large") return a.size === b.size;
  return true;
}

/** The content as a recorded body (text when UTF-8, otherwise bytes served as base64); null when none. */
export function contentOf(state: FileState): Body | null {
  if (state.kind !== "file") return null;
  const b = toStoredBody(state.bytes, state.bytes.length, "text/plain");
  return {
    encoding: b.encoding,
    data: typeof b.data === "string" ? b.data : b.data.toString("base64"),
    size: b.size,
    storedSize: b.storedSize,
    truncated: b.truncated,
    contentType: "text/plain",
  };
}

export function sizeOf(state: FileState): number | null {
  return state.kind === "file" ? state.bytes.length : state.kind === "too-large" ? state.size : null;
}
