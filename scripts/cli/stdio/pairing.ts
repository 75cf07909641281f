/**
 * What the stdio tap makes of the frames it relays: JSON-RPC requests paired with their answers (either
 * side may ask: the host on stdin, the server on stdout), notifications and stderr lines on their own,
 * frames that are not JSON-RPC flagged. At the end, requests still unanswered are recorded as such, with
 * the exit code. Pure bookkeeping: it turns frames into StdioEvents and never touches the pipes.
 */
import { createHash } from "node:crypto";
import type { StdioFrame } from "@hopscope/shared/mcp/stdio-frames";
import type { StdioEvent, StdioFrameData } from "@hopscope/shared/trace/stdio-ingest";
import { isRecord } from "@hopscope/shared/trace/json-text";
import { frameData } from "./frame-data";
import { tryParseJson } from "@hopscope/shared/json/parse";

type Side = "stdin" | "stdout";

interface Waiting {
  key: string;
  stream: Side;
  at: number;
  request: StdioFrameData;
}

const other = (s: Side): Side => (s === "stdin" ? "stdout" : "stdin");
/** Longest pairing key sent as it is (the batch schema's bound); a longer id travels as its hash. */
const MAX_KEY = 200;

/** The id a request is answered by, on one side: any legal JSON-RPC id, however long, in a bounded key. */
function idKey(stream: Side, id: unknown): string {
  const key = `${stream}:${JSON.stringify(id)}`;
  return key.length <= MAX_KEY - 8 ? key : `${stream}:#${createHash("sha256").update(key).digest("hex")}`;
}
/** Requests awaiting an answer that are remembered; past this the oldest is recorded as never answered. */
const MAX_WAITING = 10_000;
const utf8 = new TextDecoder("utf-8");

export class StdioPairing {
  /** Requests awaiting their answer, in the order asked; an id asked again before its answer waits behind. */
  private readonly waiting = new Map<string, Waiting[]>();
  /** How many requests are waiting (an id reused while outstanding counts each time). */
  private count = 0;
  /** Suffixes for the keys of reused ids. */
  private reused = 0;

  /** `cap`: bytes of each frame sent to the recorder (the relay always passes the whole frame). */
  constructor(private readonly cap: number) {}

  frame(stream: "stdin" | "stdout" | "stderr", frame: StdioFrame, at: number): StdioEvent[] {
    const data = frameData(frame, this.cap);
    if (stream === "stderr") return [{ type: "line", stream, at, frame: data }];
    if (frame.size === 0) return [];
    const message = this.parse(frame);
    if (!isRecord(message) || message.jsonrpc !== "2.0") {
      const flag = `not a JSON-RPC message: the MCP stdio transport allows only JSON-RPC on ${stream}${stream === "stdout" ? " (logs belong on stderr)" : ""}`;
      return [{ type: "line", stream, at, frame: data, flag }];
    }
    const id = typeof message.id === "string" || typeof message.id === "number" ? message.id : undefined;
    if (typeof message.method === "string") {
      if (id === undefined) return [{ type: "line", stream, at, frame: data }];
      const events = this.count >= MAX_WAITING ? [this.forgetOldest(at)] : [];
      const idk = idKey(stream, id);
      const queue = this.waiting.get(idk) ?? [];
      // A reused id gets a key of its own, so both requests are recorded; answers pair in order.
      const key = queue.length === 0 ? idk : `${idk}#${++this.reused}`;
      queue.push({ key, stream, at, request: data });
      this.waiting.set(idk, queue);
      this.count++;
      events.push({ type: "request", key, stream, at, frame: data });
      return events;
    }
    // A response answers a request of the other side.
    const idk = idKey(other(stream), id ?? null);
    const asked = this.take(idk);
    if (!asked)
      return [
        {
          type: "line",
          stream,
          at,
          frame: data,
          flag: `a JSON-RPC response to id ${JSON.stringify(id ?? null)}, which no request on ${other(stream)} asked for`,
        },
      ];
    return [
      {
        type: "answered",
        key: asked.key,
        stream: asked.stream,
        at: asked.at,
        request: asked.request,
        answer: data,
        answerAt: at,
      },
    ];
  }

  /** The oldest request of `idKey` still waiting, no longer waiting. */
  private take(idk: string): Waiting | undefined {
    const queue = this.waiting.get(idk);
    const first = queue?.shift();
    if (queue && queue.length === 0) this.waiting.delete(idk);
    if (first) this.count--;
    return first;
  }

  /** Past MAX_WAITING the oldest request is recorded as never answered and is no longer awaited. */
  private forgetOldest(at: number): StdioEvent {
    const idk = this.waiting.keys().next().value as string;
    const oldest = this.take(idk) as Waiting;
    return {
      type: "answered",
      key: oldest.key,
      stream: oldest.stream,
      at: oldest.at,
      request: oldest.request,
      answer: null,
      answerAt: at,
      error: `still unanswered after ${MAX_WAITING} later requests; no longer awaited`,
    };
  }

  /** The server ended: half lines it left, requests it never answered, and how it ended. */
  end(
    rest: { stream: "stdin" | "stdout" | "stderr"; frame: StdioFrame }[],
    code: number | null,
    signal: string | null,
    at: number,
  ): StdioEvent[] {
    const how = signal ? `was killed by ${signal}` : `exited with code ${code ?? "?"}`;
    const events: StdioEvent[] = rest.map(({ stream, frame }) => ({
      type: "line",
      stream,
      at,
      frame: frameData(frame, this.cap),
      flag: `half a line: ${frame.size} bytes on ${stream} without a newline when the server ${how}`,
    }));
    for (const w of [...this.waiting.values()].flat()) {
      const who =
        w.stream === "stdin"
          ? `the server ${how} before answering`
          : `the server ${how}; the host had not answered its request`;
      events.push({
        type: "answered",
        key: w.key,
        stream: w.stream,
        at: w.at,
        request: w.request,
        answer: null,
        answerAt: at,
        error: who,
      });
    }
    this.waiting.clear();
    this.count = 0;
    events.push({ type: "exit", at, code, signal });
    return events;
  }

  /** A frame's JSON, or for one too long to keep whole, its id and method read from its start. */
  private parse(frame: StdioFrame): unknown {
    const text = utf8.decode(frame.bytes);
    if (!frame.truncated) return tryParseJson(text);
    // Only a prefix is kept: enough to pair it (id and method usually lead; otherwise it stays unpaired).
    const id = /"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)/.exec(text)?.[1];
    const method = /"method"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(text)?.[1];
    const looksRpc = /^\s*\{/.test(text) && /"jsonrpc"\s*:\s*"2\.0"/.test(text);
    if (!looksRpc) return undefined;
    return {
      jsonrpc: "2.0",
      ...(id === undefined ? {} : { id: JSON.parse(id) as unknown }),
      ...(method === undefined ? {} : { method }),
    };
  }
}
