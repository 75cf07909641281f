/** The terminal hop log's line for a notes-file change (npm start prints it beside the hops). */
import { describe, expect, it } from "vitest";
import { NotesChangeSchema } from "@hopscope/shared/trace/notes-file";
import { formatNotesLine } from "../scripts/launcher/notes-line";

const body = (data: string) => ({
  encoding: "utf8" as const,
  data,
  size: data.length,
  storedSize: data.length,
  truncated: false,
});

describe("the hop log's notes line", () => {
  it("says what changed and which tool call did it; a destroyed note is counted", () => {
    const change = NotesChangeSchema.parse({
      id: 1,
      at: 0,
      file: "data/db",
      event: "changed",
      before: body("call the dentist\n"),
      after: body("buy milk"),
      size: 8,
      cause: { kind: "tool-call", traceId: "t", exchangeId: 5, toolName: "write" },
      traceId: "t",
    });
    expect(formatNotesLine(change)).toBe("       file          data/db  1 note deleted, 1 added  (tools/call write)");
    expect(
      formatNotesLine({
        ...change,
        event: "deleted",
        before: body("x\n"),
        after: null,
        size: null,
        cause: { kind: "none" },
        traceId: null,
      }),
    ).toBe("       file          data/db  the file was deleted  (no tool call running)");
  });
});
