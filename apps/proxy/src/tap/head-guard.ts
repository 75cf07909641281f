/**
 * The request guard (@hopscope/nodekit/guard, the one all servers use) on a head as the taps' parser gives
 * it: the same fields node:http's `req.headers` would give checkIncoming (the first Host and Content-Type,
 * repeated Origins joined as node:http joins them, so two Origins are refused as one unparseable one).
 */
import { checkRequest, type GuardPolicy, type Refusal } from "@hopscope/nodekit/guard";
import { flatHeader } from "./hop-headers";

function joined(flat: readonly string[], name: string): string | undefined {
  let out: string | undefined;
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const k = flat[i] as string;
    if (k.length === name.length && k.toLowerCase() === name)
      out = out === undefined ? (flat[i + 1] as string) : `${out}, ${flat[i + 1]}`;
  }
  return out;
}

export function checkHead(method: string, flat: readonly string[], policy: GuardPolicy): Refusal | null {
  const length = flatHeader(flat, "content-length");
  const hasBody =
    (length !== undefined && length.trim() !== "0") || flatHeader(flat, "transfer-encoding") !== undefined;
  return checkRequest(
    {
      method,
      host: flatHeader(flat, "host"),
      origin: joined(flat, "origin"),
      contentType: flatHeader(flat, "content-type"),
      hasBody,
    },
    policy,
  );
}
