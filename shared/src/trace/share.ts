/**
 * The document a shared trace page carries (the HTML export, `hopscope export <id> --format html`): the
 * hopscope trace bundle plus the views the recorder derives per model exchange (rendered prompt with its
 * segments, token ids and budget, raw output, diff), computed at export so the page needs neither a
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
});
export type SharedTrace = z.infer<typeof SharedTraceSchema>;

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
