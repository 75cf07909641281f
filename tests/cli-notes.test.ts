/**
 * `npm run -s hopscope -- notes reset [--set NAME]` and `notes show`, run as a presenter runs them: a
 * child process pointed (HOPSCOPE_URL) at a real recorder on port 0 that watches a temp notes file.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TraceListSchema } from "@hopscope/shared/trace/api";
import { startRecorder, type TestRecorder } from "./support/recorder";
import { runHopscope } from "./support/run-cli";

let recorder: TestRecorder;
let dir: string;
let notesFile: string;

const hopscope = (args: string[]) => runHopscope(args, recorder.url);

describe("hopscope notes", () => {
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "hopscope-cli-notes-"));
    notesFile = join(dir, "db");
    await writeFile(notesFile, "buy milk\nbuy milk\nbuy milk\n");
    recorder = await startRecorder({}, { notes: { file: notesFile, explicit: true, maxBytes: 1024 * 1024 } }, { dir });
  });
  afterAll(async () => {
    await recorder?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("resets the file to a named set and to empty, recording no trace", async () => {
    const dentist = await hopscope(["notes", "reset", "--set", "dentist"]);
    expect(dentist).toMatchObject({ code: 0, stdout: 'notes reset to "dentist" (1 line)\n' });
    expect(await readFile(notesFile, "utf8")).toBe("call the dentist\n");
    expect((await hopscope(["notes"])).stdout).toBe("call the dentist\n");
    const empty = await hopscope(["notes", "reset"]);
    expect(empty.code).toBe(0);
    expect(await readFile(notesFile, "utf8")).toBe("");
    const list = TraceListSchema.parse(await (await fetch(`${recorder.url}/api/traces`)).json());
    expect(list.traces).toEqual([]);
  });

  it("says which sets exist when given an unknown one", async () => {
    const bad = await hopscope(["notes", "reset", "--set", "nope"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("empty, dentist, errands");
  });
});
