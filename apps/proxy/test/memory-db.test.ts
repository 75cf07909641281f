/**
 * DB_FILE=:memory: goes through the same write path as a file (the recording thread's writer, one set of
 * pragmas): it is a private temporary database, readable by the API while the recorder runs and gone after.
 */
import { readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import {
  closeAll,
  eventually,
  request,
  startRecorder,
  startUpstream,
  traces,
  type TestRecorder,
  type Upstream,
} from "./helpers";

let rec: TestRecorder | null = null;
let up: Upstream | null = null;
afterEach(() => closeAll(rec, up));

const memoryDirs = async () => (await readdir(tmpdir())).filter((d) => d.startsWith("hopscope-memory-"));

describe(":memory: database", () => {
  it("records and serves exchanges like a file database, and leaves nothing behind", async () => {
    up = await startUpstream((_req, res) =>
      res.writeHead(200, { "Content-Type": "application/json" }).end('{"ok":true}'),
    );
    const before = await memoryDirs();
    rec = await startRecorder({ mcp: up.url }, { dbFile: ":memory:" });
    expect((await memoryDirs()).length).toBe(before.length + 1);
    const res = await request(`${rec.taps.mcp.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    expect(res.status).toBe(200);
    const r = rec;
    const [trace] = await eventually(
      async () => ((await traces(r)).length === 1 ? traces(r) : null),
      "the exchange stored",
    );
    expect(trace!.exchanges[0]).toMatchObject({ tap: "mcp", status: 200, state: "complete" });
    await rec.close();
    rec = null;
    expect(await memoryDirs()).toEqual(before);
  });
});
