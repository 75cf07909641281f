/**
 * The document a shared trace page carries (the HTML export, `hopscope export <id> --format html`): the
 * hopscope trace bundle plus the views the recorder derives per model exchange (rendered prompt with its
 * segments and token ids/pieces, raw output, diff), computed at export so the page needs neither a
 * server nor the tokenizer's vocabulary. Embedded in the page as JSON data, never as markup.
 */
import { z } from "zod";
import { TraceBundleSchema } from "./bundle";
import { ExchangeViewsSchema } from "./views";

export const SHARED_TRACE_FORMAT = "hopscope-shared-trace";

export const SharedTraceSchema = z.object({
  format: z.literal(SHARED_TRACE_FORMAT),
  bundle: TraceBundleSchema,
  /** Views by exchange id (as a string key: JSON objects have string keys); only model chats have any. */
  views: z.record(z.string(), ExchangeViewsSchema),
  /**
   * Token counts the page's token budget asks for, computed at export with the real tokenizer (which is
   * megabytes, so it is not embedded): by exchange id, `[start, end, count]` of `prompt.text.slice(start, end)`.
   */
  tokenCounts: z
    .record(z.string(), z.array(z.tuple([z.number().int(), z.number().int(), z.number().int()])))
    .default({}),
});
export type SharedTrace = z.infer<typeof SharedTraceSchema>;

/** Where a counted slice of a prompt may start: the prompt's start and each `<|im_start|>` (the budget counts turn prefixes). */
export function turnStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("<|im_start|>", 1); i !== -1; i = text.indexOf("<|im_start|>", i + 1)) starts.push(i);
  return starts;
}

/** The id of the `<script type="application/json">` element that holds the document in the page. */
export const SHARED_TRACE_ELEMENT_ID = "hopscope-trace";

/**
 * JSON that is safe inside a `<script>` element: `<`, `>` and `&` (and the JS line separators) become
 * `\uXXXX` escapes, so no recorded `</script>` or `<!--` can end the element or change how it is parsed,
 * and `JSON.parse` reads back exactly the same value.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** What apps/web/share.html leaves for the export to fill: the trace document and the page title. */
export const SHARED_TRACE_PLACEHOLDERS = { trace: "__HOPSCOPE_TRACE__", title: "__HOPSCOPE_TITLE__" } as const;
