/**
 * The recorder's live feed (`/ws`): a thin transport that parses and validates each frame with the
 * shared `ServerFrameSchema` and reports open/close. Reconnecting and catching up are the
 * ConnectionModel's job; this file only moves frames.
 */
import { dataSource, type Feed, type FeedHandlers } from "./source";
import { ClientFrameSchema, ServerFrameSchema } from "@hopscope/shared/trace/schemas";
import { formatZodIssues } from "@hopscope/shared/json/zod-error";

export type { Feed, FeedHandlers } from "./source";

export function feedUrl(location: Location): string {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws`;
}

/** Opens the installed data source's feed (the recorder's `/ws` by default). */
export function openFeed(url: string, handlers: FeedHandlers): Feed {
  return dataSource()?.openFeed(url, handlers) ?? openSocketFeed(url, handlers);
}

export function openSocketFeed(url: string, handlers: FeedHandlers): Feed {
  const ws = new WebSocket(url);
  let closedByUs = false;
  ws.addEventListener("open", () => handlers.onOpen());
  ws.addEventListener("message", (event) => {
    let raw: unknown;
    try {
      raw = JSON.parse(String(event.data));
    } catch (error) {
      handlers.onBadFrame(`a frame was not JSON: ${String(error)}`);
      return;
    }
    const parsed = ServerFrameSchema.safeParse(raw);
    if (!parsed.success) {
      handlers.onBadFrame(`a frame did not match the schema: ${formatZodIssues(parsed.error, { whole: "frame" })}`);
      return;
    }
    handlers.onFrame(parsed.data);
  });
  ws.addEventListener("close", (event) => {
    if (!closedByUs) handlers.onClose(event.reason || `connection closed (code ${event.code})`);
  });
  return {
    send(frame) {
      if (ws.readyState !== WebSocket.OPEN)
        throw new Error("the live feed is not open; wait for the connection to be live");
      ws.send(JSON.stringify(ClientFrameSchema.parse(frame)));
    },
    close() {
      closedByUs = true;
      ws.close();
    },
  };
}
