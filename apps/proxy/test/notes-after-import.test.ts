/**
 * A trace file's notes changes are stored on import beside the ones the watcher records: a change the
 * watcher sees after an import must be stored too (both take their ids from one table, so neither
 * overwrites nor collides with the other). Found from outside: after importing the article's trace, the
 * next "Add buy milk" showed its file mark live but had none once reopened.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NotesResetResultSchema, NotesStatusSchema } from "@hopscope/shared/trace/notes-file";
import { startRecorder, type TestRecorder } from "./helpers";

const ARTICLE = fileURLToPath(new URL("../../../traces/buy-milk.hopscope.json", import.meta.url));

describe("notes changes after an import", () => {
  let rec: TestRecorder;
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "hopscope-notes-import-"));
    const file = path.join(dir, "db");
    await writeFile(file, "buy milk\n");
    rec = await startRecorder({}, { notes: { file, explicit: true, maxBytes: 1024 } }, { dir });
  });
  afterEach(async () => {
    await rec.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("a change seen after importing a trace with notes changes is stored, with an id of its own", async () => {
    const imported = await fetch(`${rec.url}/api/import`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: await readFile(ARTICLE),
    });
    expect(imported.status).toBe(200);
    const before = NotesStatusSchema.parse(await (await fetch(`${rec.url}/api/notes`)).json());
    const importedIds = before.changes.map((c) => c.id);
    expect(importedIds.length).toBeGreaterThan(0); // the article's trace carries its file change

    const res = await fetch(`${rec.url}/api/notes/reset`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ set: "dentist" }),
    });
    expect(res.status).toBe(200);
    const change = NotesResetResultSchema.parse(await res.json()).change;
    expect(change).not.toBeNull();
    expect(importedIds).not.toContain(change?.id);

    const after = NotesStatusSchema.parse(await (await fetch(`${rec.url}/api/notes`)).json());
    expect(after.changes.map((c) => c.id)).toEqual([...importedIds, change?.id]);
    expect(after.changes.at(-1)?.cause).toEqual({ kind: "reset", set: "dentist" });
  });
});
