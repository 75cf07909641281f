/**
 * Classifies an exchange from its recorded bytes (see ClassificationSchema). Pure and isomorphic: the
 * recorder uses it as exchanges complete, the importer and the UI can re-run it on stored exchanges.
 */
import type { Classification, HeaderList, Tap } from "./schemas";
import { classifyAgent } from "./classify-agent";
import { classifyMcp, classifyStdioMcp } from "./classify-mcp";
import { STDIO_METHOD } from "./stdio-ingest";
import { classifyModel, type ModelClassifyInput } from "./classify-model";
import { headerValue, pathOf, type RequestInput } from "./json-text";

/** Name of the header the stand-in model puts on every response (same as SIMULATED_HEADER in ollama/schemas). */
const SIMULATED = "x-hopscope-simulated";

export interface ClassifyInput extends RequestInput {
  tap: Tap;
  method: string;
  url: string;
  status: number | null;
  responseText: string | null;
  /** Pairs, or a header block (header-block.ts). */
  responseHeaders?: HeaderList | string;
}

export function classifyExchange(input: ClassifyInput): Classification {
  const contentType = headerValue(input.responseHeaders, "content-type");
  switch (input.tap) {
    case "model": {
      const sim = headerValue(input.responseHeaders, SIMULATED);
      const model: ModelClassifyInput = {
        method: input.method,
        url: input.url,
        requestText: input.requestText,
        responseText: input.responseText,
        responseContentType: contentType,
        simulated: input.status === null ? undefined : sim === "1",
        status: input.status,
      };
      return classifyModel(withRequestJson(model, input));
    }
    case "mcp":
      if (input.method === STDIO_METHOD) return classifyStdioMcp(input);
      if (input.method.toUpperCase() !== "POST") return { kind: "other" };
      return classifyMcp(
        withRequestJson(
          {
            status: input.status,
            requestText: input.requestText,
            responseText: input.responseText,
            responseContentType: contentType,
          },
          input,
        ),
      );
    case "agent":
      if (input.method.toUpperCase() !== "POST" || !pathOf(input.url).endsWith("/agent")) return { kind: "other" };
      return classifyAgent(input);
  }
}

/**
 * The request as the caller parsed it, when it did (RequestInput: present means parsed, even to undefined).
 * Set rather than spread into a new object: this runs twice per recorded exchange.
 */
function withRequestJson<T extends RequestInput>(to: T, from: RequestInput): T {
  if ("requestJson" in from) to.requestJson = from.requestJson;
  if (from.requestPart !== undefined) to.requestPart = from.requestPart;
  if (from.requestBytes !== undefined) to.requestBytes = from.requestBytes;
  return to;
}

/** Decodes a recorded body to text for classification; base64 bodies are not text and classify as absent. */
export function utf8BodyText(body: { encoding: "utf8" | "base64"; data: string } | null | undefined): string | null {
  if (!body || body.encoding !== "utf8") return null;
  return body.data;
}
