/**
 * Follows the recorder's live feed and prints one line per completed hop. Reconnects when the feed drops
 * (the recorder may restart under `npm run dev`), resuming from the last frame it saw.
 */
import WebSocket from "ws";
import { hopNumbers } from "@hopscope/shared/trace/hop-numbers";
import { ServerFrameSchema, type ExchangeSummary } from "@hopscope/shared/trace/schemas";
import { formatHopLine } from "./hop-line";
import { formatNotesLine } from "./notes-line";
import { formatZodIssues } from "@hopscope/shared/json/zod-error";

export function followHops(wsUrl: string, print: (line: string) => void): { close(): void } {
  const traces = new Map<string, ExchangeSummary[]>();
  let lastSeq = 0;
  let closed = false;
  let socket: WebSocket | undefined;

  const remember = (ex: ExchangeSummary) => {
    const list = traces.get(ex.traceId) ?? [];
    const i = list.findIndex((e) => e.id === ex.id);
    if (i >= 0) list[i] = ex;
    else list.push(ex);
    traces.set(ex.traceId, list);
    return list;
  };

  const connect = () => {
    socket = new WebSocket(wsUrl, { headers: { origin: new URL(wsUrl.replace(/^ws/, "http")).origin } });
    socket.on("open", () => {
      if (lastSeq > 0) socket?.send(JSON.stringify({ type: "resume", since: lastSeq }));
    });
    socket.on("message", (data) => {
      const parsed = ServerFrameSchema.safeParse(JSON.parse(data.toString()));
      if (!parsed.success) {
        print(
          `hop log: ignoring a frame the recorder sent that does not match the schema: ${formatZodIssues(parsed.error, { whole: "frame", max: 1 })}`,
        );
        return;
      }
      const frame = parsed.data;
      if (frame.type !== "snapshot") lastSeq = Math.max(lastSeq, frame.seq);
      else lastSeq = frame.seq;
      if (frame.type === "exchange.started") remember(frame.exchange);
      if (frame.type === "exchange.completed") {
        const list = remember(frame.exchange);
        print(formatHopLine(frame.exchange, hopNumbers(list).get(frame.exchange.id)));
      }
      if (frame.type === "notes.changed") print(formatNotesLine(frame.change));
    });
    socket.on("error", () => {
      // The close handler below reconnects; the error itself (usually ECONNREFUSED during a restart) is expected.
    });
    socket.on("close", () => {
      if (!closed) setTimeout(connect, 1000);
    });
  };
  connect();
  return {
    close() {
      closed = true;
      socket?.close();
    },
  };
}
