/**
 * `hopscope notes [show]` and `hopscope notes reset [--set NAME]`: the notes file the MCP server owns,
 * as the recorder sees it, and a reset for demos (empty, or a named starting set). The reset is made
 * by the recorder (POST /api/notes/reset), never through a tap, so it is no hop in anyone's trace.
 */
import {
  NOTES_SET_NAMES,
  NOTES_SETS,
  NotesResetResultSchema,
  NotesStatusSchema,
} from "@hopscope/shared/trace/notes-file";
import { call, guarded } from "./api/recorder-client";

const USAGE = `usage: npm run -s hopscope -- notes [show]
       npm run -s hopscope -- notes reset [--set NAME]   NAME: ${NOTES_SET_NAMES.join(", ")} (default empty)\n`;

export async function run(args: string[]): Promise<number> {
  const [sub = "show", ...rest] = args;
  if (sub === "--help" || sub === "-h") {
    process.stdout.write(USAGE);
    return 0;
  }
  if (sub !== "show" && sub !== "reset") {
    process.stderr.write(`hopscope notes: unknown subcommand "${sub}"\n${USAGE}`);
    return 2;
  }
  return guarded(async () => {
    if (sub === "show") {
      const s = await call("/api/notes", NotesStatusSchema);
      if (s.watch.state !== "watching") {
        process.stdout.write(
          s.watch.state === "remote"
            ? `the MCP server is at ${s.watch.upstream}: its notes file is not on this machine\n`
            : "the recorder does not watch the notes file (NOTES_FILE=off)\n",
        );
        return 0;
      }
      process.stdout.write(
        s.current
          ? s.current.encoding === "utf8"
            ? s.current.data
            : `(${s.current.size} bytes, not UTF-8 text)\n`
          : `(${s.watch.file} is not there)\n`,
      );
      return 0;
    }
    const si = rest.indexOf("--set");
    const set = si >= 0 ? rest[si + 1] : "empty";
    if (set === undefined || !(set in NOTES_SETS)) {
      process.stderr.write(`hopscope notes reset: --set takes one of ${NOTES_SET_NAMES.join(", ")}\n`);
      return 2;
    }
    const r = await call("/api/notes/reset", NotesResetResultSchema, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ set }),
    });
    const lines = NOTES_SETS[set as keyof typeof NOTES_SETS].split("\n").filter(Boolean).length;
    process.stdout.write(
      r.change
        ? `notes reset to "${set}" (${lines} line${lines === 1 ? "" : "s"})\n`
        : `notes already held "${set}": nothing changed\n`,
    );
    return 0;
  });
}
