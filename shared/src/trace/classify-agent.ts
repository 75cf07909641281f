/** Classification of a user → host exchange (`POST /agent`): the question and the host's reply. */
import type { Classification } from "./schemas";
import { clipText, isRecord, parsedRequestJson, type RequestInput } from "./json-text";
import { tryParseJson } from "../json/parse";

type Agent = Extract<Classification, { kind: "agent" }>;

/** Field names a host may use for its reply, most specific first. */
const REPLY_FIELDS = ["reply", "answer", "content", "text", "message", "output"] as const;

export function classifyAgent(input: RequestInput & { responseText: string | null }): Classification {
  const out: Agent = { kind: "agent" };
  const req = parsedRequestJson(input);
  if (isRecord(req)) {
    const message = req.message ?? req.question ?? req.prompt ?? req.input;
    if (typeof message === "string") out.message = clipText(message);
    if (typeof req.conversationId === "string") out.conversationId = req.conversationId;
  }
  const res = tryParseJson(input.responseText);
  if (isRecord(res)) {
    for (const field of REPLY_FIELDS) {
      const v = res[field];
      if (typeof v === "string") {
        out.reply = clipText(v);
        break;
      }
      if (isRecord(v) && typeof v.content === "string") {
        out.reply = clipText(v.content);
        break;
      }
    }
    if (out.conversationId === undefined && typeof res.conversationId === "string")
      out.conversationId = res.conversationId;
  } else if (typeof input.responseText === "string" && input.responseText !== "" && res === undefined) {
    // A host that answers in plain text: the whole body is the reply.
    out.reply = clipText(input.responseText);
  }
  return out;
}
