import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { exportOtlp } from "../../src/main/export/otlp";
import {
  createOtlpLiveExporter,
  otlpTracesUrl,
  parseOtlpHeaders,
  type OtlpLiveExporter,
} from "../../src/main/export/otlp-live";
import { MAX_ATTRIBUTE_LENGTH } from "../../src/main/export/otlp-spans";
import { FAULT_TRACE_ID, faultBundle } from "./fault-fixture";
import { HOST_SPAN_ID, TRACE_ID } from "./fixtures";
import { part4Bundle } from "./part4-fixture";

/** ExportTraceServiceRequest in OTLP/JSON (opentelemetry-proto, JSON mapping): the fields a receiver needs. */
const AnyValueSchema = z.union([
  z.object({ stringValue: z.string() }),
  z.object({ intValue: z.union([z.number().int(), z.string().regex(/^-?\d+$/)]) }),
  z.object({ doubleValue: z.number() }),
  z.object({ boolValue: z.boolean() }),
  z.object({ arrayValue: z.object({ values: z.array(z.record(z.string(), z.unknown())) }) }),
]);
const KeyValueSchema = z.object({ key: z.string().min(1), value: AnyValueSchema });
const NanosSchema = z.string().regex(/^\d{19}$/);
const SpanSchema = z.object({
  traceId: z.string().regex(/^[0-9a-f]{32}$/),
  spanId: z.string().regex(/^[0-9a-f]{16}$/),
  parentSpanId: z
    .string()
    .regex(/^[0-9a-f]{16}$/)
    .optional(),
  name: z.string().min(1),
  kind: z.number().int().min(1).max(5),
  startTimeUnixNano: NanosSchema,
  endTimeUnixNano: NanosSchema,
  attributes: z.array(KeyValueSchema),
  events: z.array(z.object({ timeUnixNano: NanosSchema, name: z.string(), attributes: z.array(KeyValueSchema) })),
  links: z.array(z.object({ traceId: z.string(), spanId: z.string(), attributes: z.array(KeyValueSchema) })),
  status: z.object({ code: z.number().int().min(0).max(2), message: z.string().optional() }),
});
const ExportTraceServiceRequestSchema = z.object({
  resourceSpans: z
    .array(
      z.object({
        resource: z.object({ attributes: z.array(KeyValueSchema) }),
        scopeSpans: z.array(
          z.object({
            scope: z.object({ name: z.string(), version: z.string().optional() }),
            spans: z.array(SpanSchema),
          }),
        ),
      }),
    )
    .min(1),
});
type OtlpSpan = z.infer<typeof SpanSchema>;

function spansOf(json: unknown): OtlpSpan[] {
  return ExportTraceServiceRequestSchema.parse(json).resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
}

function attr(span: OtlpSpan | undefined, key: string): unknown {
  const v = span?.attributes.find((a) => a.key === key)?.value;
  if (!v) return undefined;
  if ("stringValue" in v) return v.stringValue;
  if ("intValue" in v) return Number(v.intValue);
  if ("doubleValue" in v) return v.doubleValue;
  if ("boolValue" in v) return v.boolValue;
  return v.arrayValue.values.map((x) => Object.values(x)[0]);
}

const named = (spans: OtlpSpan[], name: string) => spans.filter((s) => s.name === name);
const nanosToMs = (n: string) => Number(BigInt(n) / 1000n) / 1000;

describe("exportOtlp", () => {
  it("writes the Part 4 trace as OTLP/JSON spans with GenAI, MCP and HTTP names", () => {
    const bundle = part4Bundle();
    const spans = spansOf(JSON.parse(exportOtlp(bundle)));
    expect(spans.map((s) => s.name).sort()).toEqual(
      [
        "invoke_agent",
        "tools/list",
        "chat qwen2.5:7b",
        "execute_tool append",
        "tools/call append",
        "chat qwen2.5:7b",
      ].sort(),
    );
    expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([TRACE_ID]));

    const [root] = named(spans, "invoke_agent");
    expect(root!.parentSpanId).toBeUndefined();
    expect(root!.spanId).toBe(HOST_SPAN_ID);
    expect(attr(root, "gen_ai.operation.name")).toBe("invoke_agent");
    expect(attr(root, "http.route")).toBe("/agent");

    const [chat1, chat2] = named(spans, "chat qwen2.5:7b").sort((a, b) =>
      a.startTimeUnixNano.localeCompare(b.startTimeUnixNano),
    );
    for (const chat of [chat1, chat2]) {
      expect(chat!.parentSpanId).toBe(HOST_SPAN_ID);
      expect(chat!.kind).toBe(3); // CLIENT
      expect(attr(chat, "gen_ai.operation.name")).toBe("chat");
      expect(attr(chat, "gen_ai.provider.name")).toBe("ollama");
      expect(attr(chat, "gen_ai.request.model")).toBe("qwen2.5:7b");
      expect(attr(chat, "gen_ai.response.finish_reasons")).toEqual(["stop"]);
      expect(attr(chat, "gen_ai.usage.input_tokens")).toBe(412);
      expect(attr(chat, "http.request.method")).toBe("POST");
      expect(attr(chat, "http.response.status_code")).toBe(200);
      expect(attr(chat, "url.full")).toBe("http://127.0.0.1:11435/api/chat");
      expect(attr(chat, "server.address")).toBe("127.0.0.1");
    }
    expect(attr(chat1, "gen_ai.usage.output_tokens")).toBe(24);
    expect(attr(chat1, "hopscope.model.tool_calls")).toEqual(["append"]);
    expect(attr(chat2, "gen_ai.response.time_to_first_chunk")).toBeCloseTo(0.12, 6);

    const [tool] = named(spans, "execute_tool append");
    const [call] = named(spans, "tools/call append");
    expect(tool!.parentSpanId).toBe(HOST_SPAN_ID);
    expect(call!.parentSpanId).toBe(tool!.spanId);
    expect(attr(tool, "gen_ai.tool.name")).toBe("append");
    expect(attr(tool, "gen_ai.tool.call.id")).toBe("call_1");
    expect(attr(call, "mcp.method.name")).toBe("tools/call");
    expect(attr(call, "gen_ai.tool.name")).toBe("append");
    expect(attr(call, "jsonrpc.request.id")).toBe("2");
    expect(attr(call, "gen_ai.tool.call.arguments")).toBe('{"content":"buy milk"}');
    expect(attr(call, "mcp.protocol.version")).toBe("2026-07-28");
    // Causal links: the tool execution points at the model response that asked for it, the next chat at the tool call.
    expect(tool!.links.map((l) => l.spanId)).toEqual([chat1!.spanId]);
    expect(chat2!.links.map((l) => l.spanId)).toEqual([call!.spanId]);

    const [list] = named(spans, "tools/list");
    expect(attr(list, "mcp.method.name")).toBe("tools/list");
    expect(attr(list, "jsonrpc.request.id")).toBe("1");
  });

  it("keeps the recorded times to the microsecond", () => {
    const bundle = part4Bundle();
    const spans = spansOf(JSON.parse(exportOtlp(bundle)));
    const byId = new Map(spans.map((s) => [attr(s, "hopscope.exchange.id"), s]));
    for (const ex of bundle.exchanges) {
      const span =
        ex.classification.kind === "mcp"
          ? (named(spans, "tools/call append").find((s) => attr(s, "hopscope.exchange.id") === ex.id) ??
            byId.get(ex.id))
          : byId.get(ex.id);
      expect(nanosToMs(span!.startTimeUnixNano)).toBeCloseTo(ex.timings.start, 2);
      expect(nanosToMs(span!.endTimeUnixNano)).toBeCloseTo(ex.timings.end!, 2);
    }
  });

  it("gives the same file for the same trace", () => {
    expect(exportOtlp(part4Bundle())).toBe(exportOtlp(part4Bundle()));
  });

  it("marks failures as errors under a synthetic root when there is no /agent exchange", () => {
    const spans = spansOf(JSON.parse(exportOtlp(faultBundle())));
    expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([FAULT_TRACE_ID]));
    const roots = spans.filter((s) => s.parentSpanId === undefined);
    expect(roots.map((s) => s.name)).toEqual(["hopscope trace"]);
    expect(attr(roots[0], "hopscope.trace.name")).toBe("faults");
    const byExchange = (id: number) => spans.filter((s) => attr(s, "hopscope.exchange.id") === id && s.kind !== 1);
    const [toolError] = byExchange(201);
    expect(toolError).toMatchObject({
      name: "tools/call append",
      status: { code: 2, message: "Param (content) is required" },
    });
    expect(attr(toolError, "error.type")).toBe("tool_error");
    const [protocolError] = byExchange(202);
    expect(attr(protocolError, "rpc.jsonrpc.error_code")).toBe(-32602);
    expect(attr(protocolError, "error.type")).toBe("-32602");
    const [down] = byExchange(203);
    expect(down).toMatchObject({ name: "chat qwen2.5:7b", status: { code: 2 } });
    expect(attr(down, "http.response.status_code")).toBe(502);
    expect(attr(down, "error.type")).toBe("502");
    const [blob] = byExchange(204);
    expect(blob).toMatchObject({ name: "PUT", status: { code: 0 } });
    const [aborted] = byExchange(205);
    expect(attr(aborted, "error.type")).toBe("aborted");
    for (const s of spans.filter((s) => s !== roots[0])) expect(s.parentSpanId).toBeDefined();
  });
});

describe("exportOtlp limits", () => {
  it("cuts huge tool results to a preview", () => {
    const bundle = part4Bundle();
    const call = bundle.exchanges[3]!;
    if (call.classification.kind !== "mcp") throw new Error("fixture changed: exchange 4 is tools/call");
    bundle.exchanges[3] = { ...call, classification: { ...call.classification, resultText: "milk\n".repeat(10_000) } };
    const spans = spansOf(JSON.parse(exportOtlp(bundle)));
    const result = attr(named(spans, "tools/call append")[0], "gen_ai.tool.call.result");
    expect(result).toBe("milk\n".repeat(10_000).slice(0, MAX_ATTRIBUTE_LENGTH));
  });
});

describe("parseOtlpHeaders", () => {
  it("reads name=value pairs with percent-encoded values", () => {
    expect(parseOtlpHeaders("x-api-key=abc%3D%3D, x-team = ops ,")).toEqual({ "x-api-key": "abc==", "x-team": "ops" });
  });

  it("names an entry that is not name=value", () => {
    expect(() => parseOtlpHeaders("x-api-key")).toThrow('OTEL_EXPORTER_OTLP_HEADERS: "x-api-key" is not name=value');
  });
});

describe("otlpTracesUrl", () => {
  it.each([
    ["http://127.0.0.1:4318", "http://127.0.0.1:4318/v1/traces"],
    ["http://127.0.0.1:4318/", "http://127.0.0.1:4318/v1/traces"],
    ["https://otel.example.com/api/otlp", "https://otel.example.com/api/otlp/v1/traces"],
  ])("%s → %s", (endpoint, url) => {
    expect(otlpTracesUrl(endpoint)).toBe(url);
  });

  it("refuses what is not an http(s) URL, naming the variable", () => {
    expect(() => otlpTracesUrl("localhost:4318")).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT="localhost:4318" must be an http/,
    );
    expect(() => otlpTracesUrl("collector")).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT="collector" is not a URL/);
  });
});

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** A minimal OTLP/HTTP receiver: accepts JSON at POST /v1/traces (under an optional prefix), answers `status`. */
async function startReceiver(status = 200): Promise<{ endpoint: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      received.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: JSON.parse(text) });
      res.writeHead(status, { "content-type": "application/json" });
      res.end(
        status === 200 ? JSON.stringify({ partialSuccess: {} }) : JSON.stringify({ code: 3, message: "bad spans" }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { endpoint: `http://127.0.0.1:${port}/otlp`, received, server };
}

describe("createOtlpLiveExporter", () => {
  let exporter: OtlpLiveExporter | undefined;
  let server: Server | undefined;
  afterEach(async () => {
    await exporter?.shutdown();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    exporter = undefined;
    server = undefined;
  });

  it("sends a trace's spans as OTLP/JSON to {endpoint}/v1/traces", async () => {
    const receiver = await startReceiver();
    server = receiver.server;
    exporter = createOtlpLiveExporter({ endpoint: receiver.endpoint, headers: { "x-api-key": "k-123" } });
    expect(exporter.url).toBe(`${receiver.endpoint}/v1/traces`);
    await exporter.exportBundle(part4Bundle());

    expect(receiver.received).toHaveLength(1);
    const [req] = receiver.received;
    expect(req).toMatchObject({ method: "POST", url: "/otlp/v1/traces" });
    expect(req!.headers["content-type"]).toBe("application/json");
    expect(req!.headers["x-api-key"]).toBe("k-123");
    const spans = spansOf(req!.body);
    expect(spans).toHaveLength(6);
    expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([TRACE_ID]));
    const root = spans.find((s) => s.name === "invoke_agent");
    expect(root?.spanId).toBe(HOST_SPAN_ID);
    expect(
      spans
        .filter((s) => s.parentSpanId === HOST_SPAN_ID)
        .map((s) => s.name)
        .sort(),
    ).toEqual(["chat qwen2.5:7b", "chat qwen2.5:7b", "execute_tool append", "tools/list"]);
    // What the receiver got is what the file export writes.
    expect(req!.body).toEqual(JSON.parse(exportOtlp(part4Bundle())));
  });

  it("rejects with the endpoint and the reason when the receiver refuses the spans", async () => {
    const receiver = await startReceiver(400);
    server = receiver.server;
    exporter = createOtlpLiveExporter({ endpoint: receiver.endpoint });
    await expect(exporter.exportBundle(faultBundle())).rejects.toThrow(
      `OTLP export of trace ${FAULT_TRACE_ID} to ${receiver.endpoint}/v1/traces failed: Bad Request (HTTP 400: {"code":3,"message":"bad spans"})`,
    );
    expect(receiver.received).toHaveLength(1);
  });
});
