/**
 * Our notes MCP server over HTTP (port 0) with the recorder's MCP tap in front of it, in a temp dir that holds
 * the notes file and the recorder's database; `close` stops both and removes the dir.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startRecorder, type TestRecorder } from "./recorder";
import { loadConfig as loadMcpConfig } from "../../apps/mcp-server/src/config";
import { start as startMcp } from "../../apps/mcp-server/src/server";

export interface NotesTapRecorder {
  notesFile: string;
  recorder: TestRecorder;
  close: () => Promise<void>;
}

export async function startNotesTapRecorder(prefix: string): Promise<NotesTapRecorder> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  const notesFile = path.join(dir, "notes");
  await writeFile(notesFile, "");
  const mcp = await startMcp({ ...loadMcpConfig({}), port: 0, host: "127.0.0.1", notesFile });
  const recorder = await startRecorder({ mcp: mcp.url }, {}, { dir });
  const close = async () => {
    await recorder.close();
    await mcp.close();
    await rm(dir, { recursive: true, force: true });
  };
  return { notesFile, recorder, close };
}
