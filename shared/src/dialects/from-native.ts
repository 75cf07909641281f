/**
 * The other direction: a native chat request written as an OpenAI Chat Completions or Anthropic Messages body,
 * the way a client in that dialect sends the same turn (tool arguments as a JSON string; tool_use / tool_result
 * blocks). Converting the result back with toNative gives the same conversation, so the same prompt. The host
 * uses it to speak each dialect; the three-shapes view uses it to show a turn in a dialect nobody recorded.
 * A tool message without `tool_call_id` answers the earlier assistant turn's calls in order.
 */
import { type Json, isObject } from "./go-decode";

interface Call {
  id: string;
  name: string;
  arguments: Json;
}

function callsOf(m: Json, turn: number): Call[] {
  const calls = Array.isArray(m.tool_calls) ? m.tool_calls.filter(isObject) : [];
  return calls.map((tc, k) => {
    const fn = isObject(tc.function) ? tc.function : {};
    return {
      id: typeof tc.id === "string" && tc.id !== "" ? tc.id : `call_${turn}_${k}`,
      name: typeof fn.name === "string" ? fn.name : "",
      arguments: isObject(fn.arguments) ? fn.arguments : {},
    };
  });
}

/** Each message with the calls it answers: tool messages get the id of the call they answer. */
function paired(messages: Json[]): { m: Json; calls: Call[]; answers?: string }[] {
  let pending: Call[] = [];
  return messages.map((m, i) => {
    if (m.role === "assistant") {
      const calls = callsOf(m, i);
      pending = [...calls];
      return { m, calls };
    }
    if (m.role === "tool") {
      const byId = typeof m.tool_call_id === "string" ? m.tool_call_id : undefined;
      const next = byId ?? pending.shift()?.id;
      return { m, calls: [], ...(next ? { answers: next } : {}) };
    }
    return { m, calls: [] };
  });
}

const text = (m: Json) => (typeof m.content === "string" ? m.content : "");
const toolsOf = (native: Json) => (Array.isArray(native.tools) ? native.tools.filter(isObject) : []);

export function openAiChatBody(native: Json, extra: Json = {}): Json {
  const messages = paired(Array.isArray(native.messages) ? native.messages.filter(isObject) : []).map(
    ({ m, calls, answers }) => {
      if (m.role === "tool") return { role: "tool", tool_call_id: answers ?? "", content: text(m) };
      if (calls.length === 0) return { role: m.role, content: text(m) };
      return {
        role: m.role,
        content: text(m) === "" ? null : text(m),
        tool_calls: calls.map((c) => ({
          id: c.id,
          type: "function",
          function: { name: c.name, arguments: JSON.stringify(c.arguments) },
        })),
      };
    },
  );
  const body: Json = { model: native.model, messages };
  const tools = toolsOf(native);
  if (tools.length > 0) body.tools = tools;
  return { ...body, ...extra };
}

export function anthropicBody(native: Json, extra: Json = {}): Json {
  let system: string | undefined;
  const out: Json[] = [];
  for (const { m, calls, answers } of paired(Array.isArray(native.messages) ? native.messages.filter(isObject) : [])) {
    if (m.role === "system") {
      system = system === undefined ? text(m) : `${system}${text(m)}`;
      continue;
    }
    if (m.role === "tool") {
      const block = { type: "tool_result", tool_use_id: answers ?? "", content: text(m) };
      const last = out[out.length - 1];
      // Results of one turn's calls travel together in one user message, as Anthropic clients send them.
      if (
        last &&
        last.role === "user" &&
        Array.isArray(last.content) &&
        last.content.every((b) => isObject(b) && b.type === "tool_result")
      )
        last.content.push(block);
      else out.push({ role: "user", content: [block] });
      continue;
    }
    if (calls.length === 0) {
      out.push({ role: m.role, content: text(m) });
      continue;
    }
    const blocks: Json[] = text(m) === "" ? [] : [{ type: "text", text: text(m) }];
    for (const c of calls) blocks.push({ type: "tool_use", id: c.id, name: c.name, input: c.arguments });
    out.push({ role: m.role, content: blocks });
  }
  const body: Json = { model: native.model, max_tokens: 1024 };
  if (system !== undefined) body.system = system;
  body.messages = out;
  const tools = toolsOf(native).map((t) => {
    const fn = isObject(t.function) ? t.function : {};
    return {
      name: fn.name,
      description: fn.description ?? "",
      input_schema: isObject(fn.parameters) ? fn.parameters : { type: "object", properties: {} },
    };
  });
  if (tools.length > 0) body.tools = tools;
  return { ...body, ...extra };
}
