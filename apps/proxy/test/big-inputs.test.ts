/**
 * The biggest inputs the recorder takes: prompts of 1, 4 and 15 MB (imported as traces) through the views and
 * the HTML export, HAR files of 100,000 and 130,000 entries, and times no date can hold. Each is either
 * handled whole or refused with a message that says why, before the work starts; none answers 500.
 */
import http from "node:http";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTraceBundle, type TraceBundle } from "@hopscope/shared/trace/bundle";
import { SHARED_TRACE_PLACEHOLDERS, SharedTraceSchema } from "@hopscope/shared/trace/share";
import { ExchangeTokensSchema, ExchangeViewsSchema, fullTokens } from "@hopscope/shared/trace/views";
import { loadQwenTokenizer } from "@hopscope/shared/tokens/qwen";
import { TraceSchema } from "@hopscope/shared/trace/schemas";
import { MAX_IMPORT_EXCHANGES } from "../src/main/export/trace-file";
import { startRecorder, type TestRecorder } from "./helpers";

const ARTICLE = new URL("../../../traces/buy-milk.hopscope.json", import.meta.url);
const MB = 1024 * 1024;

let rec: TestRecorder;
let webDist: string;

beforeAll(async () => {
  webDist = await mkdtemp(path.join(tmpdir(), "hopscope-big-ui-"));
  // The shared page's template as the UI build writes it: the two placeholders, each once.
  const { trace, title } = SHARED_TRACE_PLACEHOLDERS;
  await writeFile(path.join(webDist, "share.html"), `<title>${title}</title><script>${trace}</script>`);
  rec = await startRecorder({}, { webDist });
});

afterAll(async () => {
  await rec?.close();
  await rm(webDist, { recursive: true, force: true });
});

/** About `bytes` of varied text: an agent's recorded request, CJK, emoji split across tokens, and markup. */
function variedText(bytes: number): string {
  const agent = readFileSync(
    new URL("../../../tests/fixtures/agents/claude-code/model-01.json", import.meta.url),
    "utf8",
  );
  const mix = `${agent}\n数据 façade naïve 🧑‍🍳🥛 </script><!-- & \u2028 ${"é".normalize("NFD")}\n`;
  return mix.repeat(Math.ceil(bytes / mix.length)).slice(0, bytes);
}

/** The article's trace with its first model chat's user message grown to `bytes` (or set to `content`). */
function traceWithPrompt(bytes: number, content?: string): TraceBundle {
  const bundle = parseTraceBundle(JSON.parse(readFileSync(ARTICLE, "utf8")));
  const chat = bundle.exchanges.find((x) => x.classification.kind === "model.chat")!;
  const body = JSON.parse(chat.requestBody!.data) as { messages: { role: string; content: string }[] };
  const line = "Please keep this line in my notes, word for word. ";
  body.messages[0]!.content = content ?? line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
  const data = JSON.stringify(body);
  chat.requestBody = { ...chat.requestBody!, data, size: data.length, storedSize: data.length };
  bundle.trace.name = `a ${bytes / MB} MB prompt`;
  return bundle;
}

/**
 * POSTs a file to /api/import with node:http, so that an answer sent before the whole body is read (413 on
 * the declared length) is still read rather than lost to the reset that follows it.
 */
function importText(text: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const data = Buffer.from(text);
  return new Promise((resolve, reject) => {
    const req = http.request(`${rec.url}/api/import`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": data.length },
    });
    let answered = false;
    req.on("response", (res) => {
      answered = true;
      const parts: Buffer[] = [];
      res.on("data", (c: Buffer) => parts.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(parts).toString()) as never }),
      );
    });
    req.on("error", (err) => {
      if (!answered) reject(err);
    });
    req.end(data);
  });
}

async function importedChat(bundle: TraceBundle): Promise<{ traceId: string; exchangeId: number }> {
  const imported = await importText(JSON.stringify(bundle));
  expect(imported.status, JSON.stringify(imported.body).slice(0, 300)).toBe(200);
  const traceId = imported.body.id as string;
  const trace = TraceSchema.parse(await (await fetch(`${rec.url}/api/traces/${traceId}`)).json());
  expect(trace.exchanges.length).toBe(bundle.exchanges.length);
  const chat = trace.exchanges.find((x) => x.classification.kind === "model.chat")!;
  return { traceId, exchangeId: chat.id };
}

describe("prompts of megabytes", () => {
  it("renders and tokenises a 1 MB prompt, and exports it as a page with its token counts", async () => {
    const { traceId, exchangeId } = await importedChat(traceWithPrompt(1 * MB));
    const views = await fetch(`${rec.url}/api/exchanges/${exchangeId}/views`);
    expect(views.status).toBe(200);
    const body = (await views.json()) as { prompt?: { text: string; tokens: { count: number } | null } };
    expect(body.prompt!.text.length).toBeGreaterThan(MB);
    expect(body.prompt!.tokens!.count).toBeGreaterThan(100_000);
    const html = await fetch(`${rec.url}/api/traces/${traceId}/export?format=html`);
    expect(html.status).toBe(200);
    const page = await html.text();
    expect(page).toContain("Please keep this line in my notes");
    expect(page).toContain('"starts"');
  }, 240_000);

  it("carries the tokenizer's own ids and offsets for a big varied prompt, in the views, the tokens and the page", async () => {
    const { traceId, exchangeId } = await importedChat(traceWithPrompt(MB, variedText(MB)));
    const views = ExchangeViewsSchema.parse(await (await fetch(`${rec.url}/api/exchanges/${exchangeId}/views`)).json());
    const prompt = views.prompt!;
    const tokens = fullTokens(prompt.tokens)!;
    const tokenizer = await loadQwenTokenizer(prompt.ollamaVersion, "qwen2.5");
    const ids = tokenizer.encode(prompt.text);
    expect(tokens.count).toBe(ids.length);
    expect(tokens.ids).toEqual(ids);
    expect(tokens.starts).toEqual(tokenizer.tokenStarts(prompt.text, ids));
    const pieces = tokenizer.pieces(ids);
    expect(tokens.odd.length).toBeGreaterThan(0);
    for (const [i, display] of tokens.odd) expect(display).toBe(pieces[i]);
    const alone = ExchangeTokensSchema.parse(
      await (await fetch(`${rec.url}/api/exchanges/${exchangeId}/tokens`)).json(),
    );
    expect(alone.prompt).toEqual(tokens);
    const page = await (await fetch(`${rec.url}/api/traces/${traceId}/export?format=html`)).text();
    // The data sits between the template's <script> and </script>: a recorded `</script>` must not end it early.
    const data = page.slice(page.indexOf("<script>") + 8, page.lastIndexOf("</script>"));
    const shared = SharedTraceSchema.parse(JSON.parse(data));
    expect(fullTokens(shared.views[String(exchangeId)]!.prompt!.tokens)).toEqual(tokens);
    expect(shared.views[String(exchangeId)]!.prompt!.text).toBe(prompt.text);
  }, 240_000);

  it("renders a 4 MB prompt in full and says why it has no token counts; the page exports", async () => {
    const { traceId, exchangeId } = await importedChat(traceWithPrompt(4 * MB));
    const views = await fetch(`${rec.url}/api/exchanges/${exchangeId}/views`);
    expect(views.status).toBe(200);
    const body = (await views.json()) as { prompt?: { text: string; tokens: unknown }; notes?: string[] };
    expect(body.prompt!.text.length).toBeGreaterThan(4 * MB);
    expect(body.prompt!.tokens).toBeNull();
    expect(body.notes!.join("\n")).toMatch(/no token counts: this text is 4\.\d MB, over the 2\.0 MB/);
    const html = await fetch(`${rec.url}/api/traces/${traceId}/export?format=html`);
    expect(html.status).toBe(200);
    expect(await html.text()).toContain("Please keep this line in my notes");
  }, 240_000);

  it("renders a 15 MB prompt, and refuses its page up front as over what a page can carry", async () => {
    const { traceId, exchangeId } = await importedChat(traceWithPrompt(15 * MB));
    const views = await fetch(`${rec.url}/api/exchanges/${exchangeId}/views`);
    expect(views.status).toBe(200);
    const body = (await views.json()) as { prompt?: { text: string; tokens: unknown } };
    expect(body.prompt!.text.length).toBeGreaterThan(15 * MB);
    expect(body.prompt!.tokens).toBeNull();
    const html = await fetch(`${rec.url}/api/traces/${traceId}/export?format=html`);
    expect(html.status).toBe(413);
    expect(((await html.json()) as { error: string }).error).toMatch(/over the 20\.0 MB an HTML page can carry/);
    for (const format of ["hopscope", "har", "otlp", "mermaid"]) {
      const file = await fetch(`${rec.url}/api/traces/${traceId}/export?format=${format}`);
      expect(file.status, format).toBe(200);
      await file.arrayBuffer();
    }
  }, 240_000);
});

/** A HAR of `n` small entries, one second apart. */
function harOf(n: number, entry: (i: number) => Record<string, unknown> = () => ({})): string {
  const entries = Array.from({ length: n }, (_, i) => ({
    startedDateTime: new Date(Date.UTC(2026, 10, 29, 20) + i * 1000).toISOString(),
    time: 5,
    request: { method: "GET", url: `http://127.0.0.1:7070/api/item/${i}`, headers: [] },
    response: { status: 200, headers: [], content: { mimeType: "text/plain", size: 2, text: "ok" } },
    timings: { send: 1, wait: 3, receive: 1 },
    ...entry(i),
  }));
  return JSON.stringify({ log: { version: "1.2", creator: { name: "test", version: "1" }, entries } });
}

describe("large and odd HAR files", () => {
  it("refuses 130,000 and 100,000 entries up front, naming the limit each passes", async () => {
    for (const n of [130_000, 100_000]) {
      const text = harOf(n);
      const refused = await importText(text);
      if (text.length > rec.config.maxImportBytes) {
        expect(refused.status).toBe(413);
        expect(refused.body.error).toContain("MAX_IMPORT_BYTES");
      } else {
        expect(refused.status).toBe(400);
        expect(refused.body.error).toContain(`the file holds ${n.toLocaleString("en-US")}`);
        expect(refused.body.error).toContain(`at most ${MAX_IMPORT_EXCHANGES.toLocaleString("en-US")}`);
      }
    }
    expect(harOf(100_000).length).toBeLessThan(rec.config.maxImportBytes);
    const health = await fetch(`${rec.url}/api/health`);
    expect(health.status).toBe(200);
  }, 240_000);

  it("stores every entry of a HAR at the limit, and exports it in every format", async () => {
    const imported = await importText(harOf(MAX_IMPORT_EXCHANGES));
    expect(imported.status).toBe(200);
    expect(imported.body.exchangeCount).toBe(MAX_IMPORT_EXCHANGES);
    const id = imported.body.id as string;
    const trace = TraceSchema.parse(await (await fetch(`${rec.url}/api/traces/${id}`)).json());
    expect(trace.exchanges.length).toBe(MAX_IMPORT_EXCHANGES);
    for (const format of ["hopscope", "har", "otlp", "mermaid", "html"]) {
      const file = await fetch(`${rec.url}/api/traces/${id}/export?format=${format}`);
      expect(file.status, format).toBe(200);
      await file.arrayBuffer();
    }
  }, 240_000);

  it("refuses a timing no date can hold, naming the field", async () => {
    const har = await importText(harOf(2, (i) => (i === 1 ? { timings: { send: 1, wait: 1e300, receive: 1 } } : {})));
    expect(har.status).toBe(400);
    expect(har.body.error).toContain("log.entries[1].timings.wait: a duration over 1e12 ms");
    const bundle = parseTraceBundle(JSON.parse(readFileSync(ARTICLE, "utf8")));
    const json = JSON.parse(JSON.stringify(bundle)) as { exchanges: { timings: { start: number } }[] };
    json.exchanges[0]!.timings.start = 1e300;
    const own = await importText(JSON.stringify(json));
    expect(own.status).toBe(400);
    expect(own.body.error).toMatch(/exchanges\[0\]\.timings\.start: a time after the year 275760/);
  });
});
