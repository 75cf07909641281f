/**
 * The taps thread: the three taps and nothing else, so forwarding shares its event loop with no API
 * request, no live-feed client and no recording work. What the taps see goes to the recording thread over
 * its own channel (EventSender); logs and the queue's state go to the main thread.
 */
import { parentPort, workerData } from "node:worker_threads";
import { startTap, type TapHandle } from "./tap-server";
import { ExchangeReporter } from "./exchange-reporter";
import type { Logger } from "../logger";
import { EventSender } from "./event-sender";
import { RecordingGate } from "./recording-gate";
import type { FromTaps, TapsThreadData, ToTaps } from "../link/protocol";

const parent = parentPort;
if (!parent) throw new Error("tap/thread.ts runs as a worker thread (see link/threads.ts)");
const data = workerData as TapsThreadData;
const post = (msg: FromTaps) => parent.postMessage(msg);
const log = (level: "debug" | "info" | "warn" | "error") => (obj: object, msg: string) =>
  post({
    kind: "log",
    level,
    obj: Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, v instanceof Error ? v.message : v])),
    msg,
  });
const logger: Logger = { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") };

const gate = new RecordingGate();
const sender = new EventSender(data.events, (state) => post({ kind: "queue", state }), gate, data.queueLimits);
const reporter = new ExchangeReporter(sender, data.maxBodyBytes);
const handles: TapHandle[] = [];
try {
  for (const t of data.taps) {
    // Ollama decodes any Content-Type as JSON and its documented curl examples send form-encoded ones,
    // so the model tap checks Host and Origin only; the agent and MCP taps also insist on JSON.
    const guard = { ...data.guard, requireJson: t.tap !== "model" };
    handles.push(
      await startTap({
        tap: t.tap,
        upstream: t.upstream,
        host: data.host,
        port: t.port,
        reporter,
        gate,
        timeoutMs: data.timeoutMs,
        headersTimeoutMs: data.headersTimeoutMs,
        logger,
        guard,
      }),
    );
  }
  post({ kind: "ready", taps: handles.map((h) => ({ tap: h.tap, upstream: h.upstream, port: h.port, url: h.url })) });
} catch (err) {
  await Promise.all(handles.map((h) => h.close()));
  post({ kind: "failed", error: (err as Error).message });
}

parent.on("message", (msg: ToTaps) => {
  if (msg.kind === "flush") {
    sender.flush();
    return post({ kind: "flushed", flush: msg.flush });
  }
  void Promise.all(handles.map((h) => h.close())).then(() => {
    // Let the close events of cut-off exchanges run, so they reach the recording thread.
    setImmediate(() => {
      sender.flush();
      post({ kind: "closed" });
      parent.close();
      data.events.close();
    });
  });
});
