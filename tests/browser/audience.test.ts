/**
 * The audience view: the recorder runs with an audience listener; the presenter's page (the
 * live UI) and a viewer's page (the join URL) are open in Chromium. The presenter steps, presents and
 * replays, the viewer follows; the viewer steps on its own and jumps back. A wrong join code gets a bare
 * 403, anything that would change state is refused, a viewer speaking anything but the feed protocol is
 * dropped, ending the session disconnects everyone, and 100 WebSocket viewers all see the last hop.
 */
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import {
  AudienceServerFrameSchema,
  AudienceStatusSchema,
  type AudienceServerFrame,
  type AudienceStatus,
} from "@hopscope/shared/trace/audience";
import type { RecorderHandle } from "../../apps/proxy/src/server";
import { startRecorder, type TestRecorder } from "../support/recorder";
import type { Browser } from "./support/browser";
import { browserSuite } from "./support/suite";

const ARTICLE = new URL("../../traces/buy-milk.hopscope.json", import.meta.url);

async function status(recorder: RecorderHandle): Promise<Extract<AudienceStatus, { state: "open" }>> {
  const s = AudienceStatusSchema.parse(await (await fetch(`${recorder.url}/api/audience`)).json());
  if (s.state !== "open") throw new Error(`the audience view is ${s.state}`);
  return s;
}

async function putPosition(recorder: RecorderHandle, hop: number, traceId: string): Promise<void> {
  const res = await fetch(`${recorder.url}/api/audience/position`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ traceId, hop, present: false, replay: { cursor: hop * 100, playing: true, speed: 4 } }),
  });
  expect(res.status, await res.clone().text()).toBe(204);
}

/** A WebSocket viewer that keeps every frame it receives. */
function viewer(
  url: string,
): Promise<{ ws: WebSocket; frames: AudienceServerFrame[]; closed: Promise<{ code: number; reason: string }> }> {
  const ws = new WebSocket(url);
  const frames: AudienceServerFrame[] = [];
  ws.on("message", (data) => frames.push(AudienceServerFrameSchema.parse(JSON.parse(String(data)))));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on("close", (code, reason) => resolve({ code, reason: String(reason) })),
  );
  return new Promise((resolve, reject) => {
    ws.once("open", () => resolve({ ws, frames, closed }));
    ws.once("error", reject);
  });
}

/** The requests a page has sent and not yet had answered (WebSockets are not requests here). */
function outstanding(page: Browser["page"]): Set<unknown> {
  const open = new Set<unknown>();
  page.on("request", (r) => open.add(r));
  page.on("requestfinished", (r) => open.delete(r));
  page.on("requestfailed", (r) => open.delete(r));
  return open;
}

/** How long a poll waits for the page or the recorder to catch up (a busy machine is slow). */
const POLL = { timeout: 10_000 };

const feedUrl = (joinUrl: string) => `${joinUrl.replace(/^http/, "ws")}feed`;
const lastHop = (frames: AudienceServerFrame[]) => frames.filter((f) => f.type === "position").at(-1)?.position.hop;

describe("the audience view", () => {
  const suite = browserSuite({ stack: false });
  let recorder: TestRecorder;
  let traceId: string;
  let presenter: Browser;
  let room: Browser;
  let roomRequests: Set<unknown>;

  beforeAll(async () => {
    recorder = await startRecorder({}, { webDist: suite.ui, audience: { host: "127.0.0.1", port: 0 } });
    const res = await fetch(`${recorder.url}/api/import`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: await readFile(ARTICLE, "utf8"),
    });
    traceId = ((await res.json()) as { id: string }).id;
    presenter = suite.browser;
    room = await suite.openBrowser("light");
    roomRequests = outstanding(room.page);
    presenter.page.setDefaultTimeout(10_000);
    room.page.setDefaultTimeout(10_000);
  }, 120_000);
  afterAll(() => recorder?.close());

  it("a wrong or missing join code gets 403 and nothing else, on pages, API and feed", async () => {
    const { joinUrl, code } = await status(recorder);
    const origin = new URL(joinUrl).origin;
    for (const path of [
      "/",
      "/j/",
      `/j/${code.slice(0, -1)}0/`,
      `/j/${code}0/api/traces`,
      "/api/traces",
      `/api/traces/${traceId}`,
    ]) {
      const res = await fetch(`${origin}${path}`);
      expect([path, res.status, await res.text()]).toEqual([path, 403, ""]);
    }
    const refused = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${origin.replace(/^http/, "ws")}/j/0${code}/feed`);
      ws.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
      ws.on("open", () => resolve(101));
    });
    expect(refused).toBe(403);
  });

  it("has no route that changes anything, and drops a viewer that sends anything but ping", async () => {
    const { joinUrl } = await status(recorder);
    for (const [method, path] of [
      ["POST", "api/import"],
      ["PATCH", `api/traces/${traceId}`],
      ["DELETE", `api/traces/${traceId}`],
      ["PUT", "api/audience/position"],
      ["POST", "api/ask"],
      ["POST", ""],
    ] as const) {
      const res = await fetch(`${joinUrl}${path}`, {
        method,
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      expect([method, path, res.status]).toEqual([method, path, 405]);
    }
    // The trace exists on the recorder, but the presenter has not shown it yet: a viewer cannot read it.
    expect((await fetch(`${joinUrl}api/traces/${traceId}`)).status).toBe(404);
    expect((await fetch(`${joinUrl}api/audience`)).status).toBe(404);
    const v = await viewer(feedUrl(joinUrl));
    v.ws.send(JSON.stringify({ type: "resume", since: 0 }));
    expect((await v.closed).code).toBe(1008);
    const w = await viewer(feedUrl(joinUrl));
    w.ws.send("not json at all");
    expect((await w.closed).code).toBe(1008);
  });

  it("the viewer follows the presenter's steps, presenter mode and replay, may step alone, and jumps back", async () => {
    const p = presenter.page;
    const v = room.page;
    await p.goto(`${recorder.url}/#/trace/${traceId}/hop/1`);
    await p.locator('[data-hop="1"][data-selected="true"]').waitFor();
    const { joinUrl } = await status(recorder);
    // Any breach of the viewer's Content-Security-Policy is a page error (asserted empty at the end).
    await room.context.addInitScript(() =>
      document.addEventListener("securitypolicyviolation", (e) =>
        console.error(`CSP: ${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
      ),
    );
    await v.goto(joinUrl);
    await v.locator('[data-hop="1"][data-selected="true"]').waitFor();
    await p.locator("body").click({ position: { x: 5, y: 700 } });
    await p.keyboard.press("j");
    await p.keyboard.press("j");
    await v.locator('[data-hop="3"][data-selected="true"]').waitFor();
    expect(await v.getByTestId("audience-status").getAttribute("data-state")).toBe("following");
    await p.getByTestId("audience-toggle").click();
    await expect.poll(() => p.getByTestId("audience-viewers").textContent(), { timeout: 8000 }).toBe("1");
    expect(await p.getByTestId("audience-url").textContent()).toBe(joinUrl);
    // The wrong codes tried in the first test are the presenter's to see.
    expect(await p.getByTestId("audience-wrong-codes").textContent()).toMatch(/^\d+ wrong join codes refused$/);
    await p.getByTestId("audience-qr").waitFor();
    await presenter.screenshot("audience-01-presenter-qr-1280");
    await room.screenshot("audience-02-viewer-1280");
    await p.setViewportSize({ width: 1920, height: 1080 });
    await v.setViewportSize({ width: 1920, height: 1080 });
    await presenter.screenshot("audience-03-presenter-qr-1920");
    await room.screenshot("audience-04-viewer-1920");
    await p.setViewportSize({ width: 1280, height: 720 });
    await v.setViewportSize({ width: 1280, height: 720 });
    await p.getByTestId("audience-toggle").click();

    // Replay: the viewer sees exactly the hops revealed so far.
    await p.keyboard.press("r");
    await p.keyboard.press("j");
    await expect.poll(() => v.locator("[data-hop]").count(), POLL).toBe(2);
    await v.locator('[data-hop="2"][data-selected="true"]').waitFor();
    // Presenter mode is mirrored.
    await p.keyboard.press("p");
    await v.getByTestId("presenter").waitFor();
    // On stage the viewer's header says whether it follows the speaker, never the speaker's own
    // "Following live / Paused — Follow live" bar (the room cannot change that), and the question is whole.
    expect(await v.getByTestId("follow-live").count()).toBe(0);
    const state = v.getByTestId("presenter").getByTestId("audience-status");
    expect(await state.getAttribute("data-state")).toBe("following");
    expect(
      await v.getByTestId("presenter-title").evaluate((e) => [e.textContent, e.scrollHeight <= e.clientHeight + 1]),
    ).toEqual(["buy milk (the article's trace, Ollama 0.13.5)", true]);
    await room.screenshot("audience-05-viewer-presenting-1280");
    await v.setViewportSize({ width: 1920, height: 1080 });
    await room.screenshot("audience-05-viewer-presenting-1920");
    await v.setViewportSize({ width: 1280, height: 720 });
    await p.keyboard.press("Escape");
    await v.getByTestId("sequence").waitFor();
    await p.keyboard.press("Escape"); // leave the replay
    await p.keyboard.press("G");
    await v.locator('[data-hop="8"][data-selected="true"]').waitFor();

    // The viewer steps on its own; the presenter moves on without it; "s" jumps back.
    await v.locator("body").click({ position: { x: 5, y: 700 } });
    await v.keyboard.press("k");
    await v.locator('[data-hop="7"][data-selected="true"]').waitFor();
    expect(await v.getByTestId("audience-status").getAttribute("data-state")).toBe("own");
    await p.keyboard.press("g");
    await expect.poll(() => v.getByTestId("audience-status").textContent(), POLL).toContain("the speaker is at hop 1");
    expect(await v.locator('[data-hop="7"][data-selected="true"]').count()).toBe(1);
    // The viewer's keys, in its help: "F" follows the speaker; none for the ask box, follow live or a trace list it has not got.
    await v.keyboard.press("?");
    const listed = await v.getByTestId("help").locator("dd").allTextContents();
    expect(listed).toContain("Follow the speaker again (after you stepped on your own)");
    expect(listed.filter((l) => /Follow live|Ask the agent|trace in the list/.test(l))).toEqual([]);
    await v.keyboard.press("Escape");
    expect(await v.getByTestId("help").count()).toBe(0);
    await v.getByTestId("follow-speaker").click();
    await v.locator('[data-hop="1"][data-selected="true"]').waitFor();
    expect(await v.getByTestId("audience-status").getAttribute("data-state")).toBe("following");
    expect(room.pageErrors).toEqual([]);
  });

  it("serves viewers only redacted data, and only of traces the speaker has shown", async () => {
    const bundle = JSON.parse(await readFile(ARTICLE, "utf8")) as {
      trace: { name: string };
      exchanges: { requestHeaders: [string, string][] }[];
    };
    bundle.trace.name = "with a secret";
    for (const x of bundle.exchanges)
      x.requestHeaders.push(["Authorization", "Bearer sk-room-SECRET-77"], ["X-Api-Key", "SECRET-88"]);
    const res = await fetch(`${recorder.url}/api/import`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(bundle),
    });
    const secretId = ((await res.json()) as { id: string }).id;
    const { joinUrl } = await status(recorder);
    expect((await fetch(`${joinUrl}api/traces/${secretId}`)).status).toBe(404);
    await putPosition(recorder, 1, secretId);
    const trace = (await (await fetch(`${joinUrl}api/traces/${secretId}`)).json()) as { exchanges: { id: number }[] };
    for (const x of trace.exchanges) {
      const text = await (await fetch(`${joinUrl}api/exchanges/${x.id}`)).text();
      expect(text).not.toContain("SECRET");
      expect(text).toContain("[redacted]");
    }
    // The viewer page followed the speaker into the other trace, and follows back.
    await expect.poll(() => room.page.getByTestId("trace-name").textContent(), POLL).toBe("with a secret");
    await putPosition(recorder, 2, traceId);
    await expect
      .poll(() => room.page.getByTestId("trace-name").textContent(), POLL)
      .toMatch(/^buy milk \(the article's trace/);
    await room.page.locator('[data-hop="2"][data-selected="true"]').waitFor();
    expect(await room.page.getByTestId("audience-status").getAttribute("data-state")).toBe("following");
  });

  it("a trace recorded while the room watches grows on the viewers' feed as it is recorded", async () => {
    const { joinUrl } = await status(recorder);
    const v = await viewer(feedUrl(joinUrl));
    // `hopscope replay` plays the article's trace into the recorder as a new trace at its recorded pace (~3 s).
    const res = await fetch(`${recorder.url}/api/replay`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ traceId, speed: 1 }),
    });
    expect(res.status).toBe(202);
    const live = ((await res.json()) as { traceId: string }).traceId;
    await putPosition(recorder, 1, live);
    await expect
      .poll(
        () =>
          v.frames.filter(
            (f) => f.type === "live" && f.frame.type === "exchange.completed" && f.frame.exchange.traceId === live,
          ).length,
        { timeout: 10_000 },
      )
      .toBeGreaterThan(0);
    // Only the shown trace's events reach the room.
    expect(
      v.frames.every(
        (f) =>
          f.type !== "live" ||
          ("exchange" in f.frame ? f.frame.exchange.traceId : "traceId" in f.frame ? f.frame.traceId : live) === live,
      ),
    ).toBe(true);
    v.ws.close();
    await putPosition(recorder, 2, traceId);
  });

  it("100 WebSocket viewers follow a replay and all see the last hop", async () => {
    const { joinUrl } = await status(recorder);
    const viewers = await Promise.all(Array.from({ length: 100 }, () => viewer(feedUrl(joinUrl))));
    await expect.poll(async () => (await status(recorder)).viewers, POLL).toBeGreaterThanOrEqual(100);
    for (let hop = 1; hop <= 8; hop++) await putPosition(recorder, hop, traceId);
    await expect.poll(() => viewers.filter((v) => lastHop(v.frames) === 8).length, { timeout: 10_000 }).toBe(100);
    for (const v of viewers) v.ws.close();
  });

  it("ending the session disconnects every viewer and retires the join code", async () => {
    const { joinUrl } = await status(recorder);
    const v = await viewer(feedUrl(joinUrl));
    // The room's page has caught up with the speaker's last steps: nothing it asked for is still on its way.
    // (A read crossing the end is answered 403, and the browser logs that itself, whatever the page does.)
    await expect.poll(() => room.page.getByTestId("audience-status").textContent(), POLL).toContain("hop 8");
    await expect.poll(() => roomRequests.size, POLL).toBe(0);
    await presenter.page.getByTestId("audience-end").click();
    expect((await v.closed).code).toBe(4001);
    expect(v.frames.at(-1)?.type).toBe("ended");
    await room.page.getByTestId("audience-status").and(room.page.locator('[data-state="ended"]')).waitFor();
    const askedAfterEnd: string[] = [];
    room.page.on("request", (r) => askedAfterEnd.push(r.url()));
    const res = await fetch(joinUrl);
    expect([res.status, await res.text()]).toEqual([403, ""]);
    await presenter.page.getByTestId("audience-badge").and(presenter.page.locator('[data-state="ended"]')).waitFor();
    // The viewer does not knock on a retired code again (each refused reconnect would be a console error).
    // (Other errors may be there: a replayed exchange still in flight is a 404 for any page, the live UI too.)
    await room.page.waitForTimeout(1500);
    expect(room.pageErrors.filter((e) => /403|WebSocket/.test(e))).toEqual([]);
    // Nor does it read anything more: every read would be refused.
    expect(askedAfterEnd).toEqual([]);
    await room.screenshot("audience-06-viewer-ended-1280");
  });
});
