/**
 * The data source of an audience viewer (page at `/j/<code>/` on the audience listener): reads go to that
 * listener's read-only API under the same prefix; the feed is its `/j/<code>/feed`, which carries only
 * the presenter's position (AudienceServerFrameSchema), handed to `onFrame`. Nothing can be changed.
 */
import { AudienceServerFrameSchema, type AudienceServerFrame } from "@hopscope/shared/trace/audience";
import type { AppConfig } from "@hopscope/shared/trace/api";
import type { z } from "zod";
import { ApiError, SessionEndedError, httpGetJson } from "./http";
import type { DataSource, Feed, FeedHandlers } from "./source";
import { formatZodIssues } from "@hopscope/shared/json/zod-error";

/** `/j/<code>/` of the page's own address; throws when the page is not under it. */
export function audienceBase(pathname: string): string {
  const m = /^\/j\/[^/]+\//.exec(pathname);
  if (!m) throw new Error(`an audience viewer is opened at /j/<join code>/, not ${pathname}`);
  return m[0];
}

/** A viewer has no ask box and no taps: the recorder's configuration is none of its business. */
const NO_CONFIG: AppConfig = { agentTapUrl: "", modelTapUrl: "", mcpTapUrl: "", simulated: null, lesson: null };

export function audienceSource(location: Location, onFrame: (frame: AudienceServerFrame) => void): DataSource {
  const base = audienceBase(location.pathname);
  // Once the speaker ends the session its code is retired: every read would only be refused.
  let ended = false;
  return {
    kind: "audience",
    async getJson<T>(path: string, schema: z.ZodType<T>): Promise<T> {
      if (path === "/api/config") return schema.parse(NO_CONFIG);
      if (ended) throw new SessionEndedError(`GET ${path}`);
      try {
        return await httpGetJson(`${base}${path.replace(/^\//, "")}`, schema);
      } catch (e) {
        // The code was good when the page opened; only the session's end retires it. A read on its way
        // when the speaker ended the session comes back 403, maybe before the feed's "ended" frame.
        if (e instanceof ApiError && e.status === 403) throw new SessionEndedError(`GET ${path}`);
        throw e;
      }
    },
    send(method: string, path: string): Promise<never> {
      return Promise.reject(
        new ApiError(
          `${method} ${path}: the audience view is read-only; the presenter's own hopscope changes things`,
          405,
        ),
      );
    },
    openFeed(_url: string, handlers: FeedHandlers): Feed {
      const scheme = location.protocol === "https:" ? "wss:" : "ws:";
      const ws = new WebSocket(`${scheme}//${location.host}${base}feed`);
      let closedByUs = false;
      ws.addEventListener("open", () => {
        handlers.onOpen();
        // The connection model is "live" after a snapshot; the viewer's traces come from the presenter.
        handlers.onFrame({ type: "snapshot", seq: 0, traces: [], inFlight: [] });
      });
      ws.addEventListener("message", (event) => {
        let raw: unknown;
        try {
          raw = JSON.parse(String(event.data));
        } catch (error) {
          return handlers.onBadFrame(`a frame was not JSON: ${String(error)}`);
        }
        const frame = AudienceServerFrameSchema.safeParse(raw);
        if (!frame.success)
          return handlers.onBadFrame(
            `a frame did not match the audience feed: ${formatZodIssues(frame.error, { whole: "frame" })}`,
          );
        if (frame.data.type === "ended") ended = true;
        // Hops recorded now, of a trace the speaker shows: to the models, as the live UI gets them.
        if (frame.data.type === "live") handlers.onFrame(frame.data.frame);
        else onFrame(frame.data);
      });
      ws.addEventListener("close", (event) => {
        // After the speaker ended the session the code is retired: reconnecting would only be refused.
        if (!closedByUs && !ended) handlers.onClose(event.reason || `connection closed (code ${event.code})`);
      });
      return {
        send: () => undefined,
        close() {
          closedByUs = true;
          ws.close();
        },
      };
    },
  };
}
