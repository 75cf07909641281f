/**
 * Our notes MCP server over HTTP (port 0) with the recorder's MCP tap in front of it, in a temp dir that holds
 * the notes file and the recorder's database; `close` stops both and removes the dir.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { RecorderHandle } from "../../apps/proxy/src/server";
import { startTapRecorder } from "./tap-recorder";
import { loadConfig as loadMcpConfig } from "../../apps/mcp-server/src/config";
import { start as startMcp } from "../../apps/mcp-server/src/server";

export interface NotesTapRecorder {
  dir: string;
  notesFile: string;
  recorder: RecorderHandle;
  close: () => Promise<void>;
}

export async function startNotesTapRecorder(prefix: string): Promise<NotesTapRecorder> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  const notesFile = path.join(dir, "notes");
  await writeFile(notesFile, "");
  const mcp = await startMcp({ ...loadMcpConfig({}), port: 0, host: "127.0.0.1", notesFile });
  const recorder = await startTapRecorder(dir, { mcpUpstream: mcp.url });
  const close = async () => {
    await recorder.close();
    await mcp.close();
    await rm(dir, { recursive: true, force: true });
  };
  return { dir, notesFile, recorder, close };
}
