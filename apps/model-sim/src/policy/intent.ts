/**
 * What the user asked for, read from their words with a handful of patterns: the stand-in's "language
 * understanding". The verb that comes first in the sentence wins ("Remember to read the book" is an
 * add, "What's in my notes?" a read), ties going to the more destructive reading so tests see it.
 */

export type Intent =
  | { kind: "append"; content: string }
  | { kind: "read" }
  | { kind: "update"; search: string; replace: string }
  | { kind: "write"; content: string }
  | { kind: "clear" }
  | { kind: "none" };

const POLITE = /^(?:please|pls|can you|could you|would you|will you|kindly|hey|hi|ok|okay|now|also|and|then)[\s,]+/i;
const NOTES_TAIL =
  /\s+(?:to|in|into|on|onto|from|of)\s+(?:my|the|our)\s+(?:notes?(?:\s+file)?|list|file|db|todo(?:\s+list)?)\s*$/i;

/** Trim punctuation, a trailing "to my notes", surrounding quotes. */
function clean(text: string): string {
  let t = text
    .trim()
    .replace(/[.!?]+$/, "")
    .trim();
  t = t
    .replace(NOTES_TAIL, "")
    .replace(/\s+please$/i, "")
    .trim();
  const quoted = /^["'“‘](.*)["'”’]$/.exec(t);
  return (quoted ? quoted[1]! : t).trim();
}

function stripPolite(text: string): string {
  // A whole request in quotes (a shell's argument passed on as typed) is read without them.
  let t = text
    .trim()
    .replace(/^["“]([\s\S]*)["”]$/, "$1")
    .trim();
  for (let prev = ""; prev !== t;) {
    prev = t;
    t = t.replace(POLITE, "");
  }
  return t;
}

interface Candidate {
  at: number;
  rank: number;
  intent: Intent;
}

function candidates(text: string): Candidate[] {
  const found: Candidate[] = [];
  const add = (re: RegExp, rank: number, make: (m: RegExpExecArray) => Intent | null) => {
    const m = re.exec(text);
    if (!m) return;
    const intent = make(m);
    if (intent) found.push({ at: m.index, rank, intent });
  };
  add(/\b(?:clear|empty|wipe|erase|reset|delete (?:all|everything)|remove (?:all|everything))\b/i, 0, () => ({
    kind: "clear",
  }));
  add(
    /\b(?:overwrite|replace (?:all|everything|the whole|my notes|the notes|the file)|set my notes)\b.*?\b(?:with|to)\s+(.+)$/i,
    1,
    (m) => ({ kind: "write", content: clean(m[1]!) }),
  );
  add(/\b(?:replace|change|update|swap|rename|correct|fix)\s+(.+?)\s+(?:with|to|into|for)\s+(.+)$/i, 2, (m) => ({
    kind: "update",
    search: clean(m[1]!.replace(/^(?:the\s+)?(?:word|text|line|entry|note)\s+/i, "")),
    replace: clean(m[2]!),
  }));
  add(
    /\b(?:add|append|remember|note down|note|jot down|jot|save|put|record|write down|log)\b(?:\s+(?:that|to|down))?\s+(.+)$/i,
    3,
    (m) => ({
      kind: "append",
      content: clean(m[1]!),
    }),
  );
  add(
    /\b(?:show|read|list|display|view|see|print|what'?s in|what is in|what do i have|what did i|tell me)\b/i,
    4,
    () => ({ kind: "read" }),
  );
  return found.filter((c) => !("content" in c.intent) || c.intent.content !== "");
}

/**
 * @example parseIntent("Add buy milk to my notes") → { kind: "append", content: "buy milk" }
 * @example parseIntent("Change milk to oat milk") → { kind: "update", search: "milk", replace: "oat milk" }
 */
export function parseIntent(userText: string): Intent {
  const text = stripPolite(userText);
  const best = candidates(text).sort((a, b) => a.at - b.at || a.rank - b.rank)[0];
  return best?.intent ?? { kind: "none" };
}
