/**
 * The room sees the notes file change as the speaker does: a `notes.changed` event caused by a tool call
 * of a trace the speaker has shown is relayed to every viewer, live (found from outside: in the
 * write-instead-of-append lesson the speaker's lane said "1 note deleted" while the viewers' stayed empty
 * until they reloaded). A change of a trace not shown, or with no tool call, is not sent. Real WebSockets.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { AudienceServerFrameSchema, type AudienceServerFrame } from "@hopscope/shared/trace/audience";
import type { NotesChange } from "@hopscope/shared/trace/notes-file";
import { AudienceSession } from "../src/main/audience/session";
import { eventually } from "./helpers";

function change(id: number, traceId: string | null): NotesChange {
  const text = (data: string) => ({
    encoding: "utf8" as const,
    data,
    size: data.length,
    storedSize: data.length,
    truncated: false,
    contentType: "text/plain",
  });
  return {
    id,
    at: Date.now(),
    file: "data/db",
    event: "changed",
    before: text("call the dentist\n"),
    after: text("buy milk\n"),
    size: 9,
    cause: traceId ? { kind: "tool-call", traceId, exchangeId: 3, toolName: "write" } : { kind: "none" },
    traceId,
  };
}

describe("the audience feed and the notes file", () => {
  let server: Server;
  let wss: WebSocketServer;
  let session: AudienceSession;
  let client: WebSocket;
  let frames: AudienceServerFrame[];

  beforeEach(async () => {
    session = new AudienceSession();
    server = createServer();
    wss = new WebSocketServer({ server });
    const joined = new Promise<void>((resolve) => wss.on("connection", (ws) => (session.join(ws), resolve())));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    frames = [];
    client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    client.on("message", (data) => frames.push(AudienceServerFrameSchema.parse(JSON.parse(String(data)))));
    await joined;
  });
  afterEach(async () => {
    client.close();
    session.end();
    wss.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("relays a change made by a shown trace's tool call, and only that one", async () => {
    session.move({ traceId: "shown", hop: 5, present: false, replay: null });
    session.relay({ type: "notes.changed", change: change(1, "other") });
    session.relay({ type: "notes.changed", change: change(2, null) });
    session.relay({ type: "notes.changed", change: change(3, "shown") });
    await eventually(async () => frames.some((f) => f.type === "live"), "a live frame");
    await new Promise((r) => setTimeout(r, 100)); // anything wrongly sent would have arrived by now
    const live = frames.flatMap((f) => (f.type === "live" ? [f.frame] : []));
    expect(live).toHaveLength(1);
    expect(live[0]).toMatchObject({
      type: "notes.changed",
      change: { id: 3, traceId: "shown", cause: { toolName: "write" } },
    });
  });
});
