/** Who this server says it is, on every modern result and in the legacy InitializeResult. */
import type { Implementation } from "@hopscope/shared/mcp/schemas";

export const SERVER_INFO: Implementation = { name: "hopscope-notes", version: "0.1.0" };

export const INSTRUCTIONS =
  "Notes server: one plain-text notes file. Use append to add a note, read to see all notes, update to change text, write to replace everything, clear to delete everything.";

/** tools/list and server/discover never change while the server runs, so caches may keep them. */
export const LIST_TTL_MS = 3_600_000;
