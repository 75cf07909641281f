/**
 * `/api/audience` on the recorder's loopback API (behind its local guard): what the presenter's UI uses
 * to show the join URL and QR code, publish its position, and end or restart the session.
 */
import { Hono } from "hono";
import { PresenterPositionSchema, type AudienceStatus } from "@hopscope/shared/trace/audience";
import { jsonBody } from "../routes/errors";
import type { AudienceSession } from "./session";
import type { AudienceListener } from "./listener";

export interface PresenterRoutesDeps {
  audience: { session: AudienceSession; listener: AudienceListener } | null;
}

export function audienceStatus(deps: PresenterRoutesDeps): AudienceStatus {
  if (!deps.audience) return { state: "off" };
  const { session, listener } = deps.audience;
  const joinUrl = listener.joinUrl();
  const code = session.joinCode;
  return joinUrl && code
    ? { state: "open", joinUrl, code, viewers: session.viewerCount, wrongCodes: session.codeGuard.stats() }
    : { state: "ended" };
}

export function presenterRoutes(deps: PresenterRoutesDeps) {
  const off = {
    error: "the audience view is off; start hopscope with `npm start -- --audience` (or AUDIENCE_HOST) to open one",
  };
  return new Hono()
    .get("/", (c) => c.json(audienceStatus(deps)))
    .put("/position", async (c) => {
      if (!deps.audience) return c.json(off, 409);
      if (!/^application\/json\b/i.test(c.req.header("content-type") ?? ""))
        return c.json({ error: "send the position as JSON (Content-Type: application/json)" }, 415);
      deps.audience.session.move(PresenterPositionSchema.parse(await jsonBody(c)));
      return c.body(null, 204);
    })
    .post("/end", (c) => {
      if (!deps.audience) return c.json(off, 409);
      deps.audience.session.end();
      return c.json(audienceStatus(deps));
    })
    .post("/restart", (c) => {
      if (!deps.audience) return c.json(off, 409);
      deps.audience.session.restart();
      return c.json(audienceStatus(deps));
    });
}
