/**
 * A pass-through in front of the stand-in model that the test sets the pace of: it can keep the next model
 * requests waiting ("the model is loading" for as long as the test looks), and hold an answer in words
 * part-way through its stream (the text is being written, the answer has not ended) until the test lets
 * it go. What passes is forwarded unchanged, line by line for streamed answers.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ModelGate {
  url: string;
  /** Where requests go (the stand-in's URL); set before the first request. */
  target: string;
  /** Keeps every model request that arrives from now on waiting, unforwarded, until `release()`. */
  holdRequests(): void;
  /** Stops the next streamed answer whose words reach `chars` characters right there, until `release()`. */
  holdAnswerAt(chars: number): void;
  /** The words of the answer stopped part-way, as far as they were let through ("" while none is). */
  readonly stoppedAnswer: string;
  /** Lets everything held go on, and holds nothing more. */
  release(): void;
  close(): Promise<void>;
}

export async function startModelGate(): Promise<ModelGate> {
  let holdingRequests = false;
  let answerAt: number | null = null;
  let stoppedAnswer = "";
  let held: (() => void)[] = [];
  const hold = (go: () => void) => void held.push(go);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      // An answer reaching `answerAt` words stops there; holdAnswerAt() applies to that one answer only.
      const stop = (go: () => void, words: string) => {
        answerAt = null;
        stoppedAnswer = words;
        hold(go);
      };
      const go = () => forward(gate.target, req, Buffer.concat(chunks), res, () => answerAt, stop);
      if (holdingRequests) hold(go);
      else go();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const gate: ModelGate = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    target: "",
    holdRequests: () => void (holdingRequests = true),
    holdAnswerAt: (chars) => void (answerAt = chars),
    get stoppedAnswer() {
      return stoppedAnswer;
    },
    release() {
      holdingRequests = false;
      answerAt = null;
      const go = held;
      held = [];
      go.forEach((f) => f());
    },
    async close() {
      gate.release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return gate;
}

/**
 * Forwards one request to `to`; a streamed answer is passed on line by line (NDJSON), and, when `stopAt()`
 * gives a number, stopped right after the line whose words reach it, the rest handed to `hold`.
 */
function forward(
  to: string,
  req: IncomingMessage,
  body: Buffer,
  res: ServerResponse,
  stopAt: () => number | null,
  hold: (go: () => void, words: string) => void,
): void {
  if (!to) {
    res.writeHead(503, { "content-type": "text/plain" }).end("the model gate has no target yet");
    return;
  }
  const target = new URL(to);
  const headers = { ...req.headers, host: target.host };
  const out = httpRequest(
    { hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers },
    (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      const at = stopAt();
      if (at === null) return void up.pipe(res);
      let words = "";
      let rest = "";
      let stopped = false;
      up.setEncoding("utf8");
      up.on("data", (text: string) => {
        rest += text;
        for (let nl = rest.indexOf("\n"); nl >= 0 && !stopped; nl = rest.indexOf("\n")) {
          res.write(rest.slice(0, nl + 1));
          words += contentOf(rest.slice(0, nl + 1));
          rest = rest.slice(nl + 1);
          if (words.length < at) continue;
          stopped = true;
          up.pause();
          hold(() => {
            res.write(rest);
            up.removeAllListeners("data");
            up.pipe(res);
          }, words);
        }
      });
      up.on("end", () => !stopped && res.end(rest));
    },
  );
  out.on("error", (err) => res.destroy(err));
  out.end(body);
}

/** The words an Ollama chat or generate stream line carries ("" for anything else). */
function contentOf(line: string): string {
  try {
    const chunk = JSON.parse(line) as { message?: { content?: unknown }; response?: unknown };
    const text = chunk.message?.content ?? chunk.response;
    return typeof text === "string" ? text : "";
  } catch {
    return "";
  }
}
