/**
 * HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) as zod schemas, plus the `_hopscope` custom
 * fields our HAR export adds so our own import restores a trace exactly.
 *
 * - `HarSchema`: every field the spec marks required, with its type. Our export is checked against it
 *   in the tests; objects are loose because the spec allows `_`-prefixed custom fields everywhere.
 * - `HarInputSchema`: only what `importHar` reads, lenient about the rest, so HAR files from browsers
 *   and tools that skip optional-in-practice fields (cookies, headersSize, cache) still import.
 */
import { z } from "zod";
import {
  BodySchema,
  ExchangeSchema,
  LinkSchema,
  NotesChangeSchema,
  TraceSummarySchema,
} from "@hopscope/shared/trace/schemas";

const NameValueSchema = z.looseObject({ name: z.string(), value: z.string(), comment: z.string().optional() });
const CookieSchema = z.looseObject({ name: z.string(), value: z.string() });
const IsoDateSchema = z.iso.datetime({ offset: true });

export const HarPostDataSchema = z.looseObject({
  mimeType: z.string(),
  params: z
    .array(
      z.looseObject({
        name: z.string(),
        value: z.string().optional(),
        fileName: z.string().optional(),
        contentType: z.string().optional(),
      }),
    )
    .optional(),
  text: z.string().optional(),
  comment: z.string().optional(),
});

export const HarContentSchema = z.looseObject({
  size: z.number().int(),
  compression: z.number().int().optional(),
  mimeType: z.string(),
  text: z.string().optional(),
  encoding: z.string().optional(),
  comment: z.string().optional(),
});

export const HarEntrySchema = z.looseObject({
  pageref: z.string().optional(),
  startedDateTime: IsoDateSchema,
  time: z.number().nonnegative(),
  request: z.looseObject({
    method: z.string(),
    url: z.url(),
    httpVersion: z.string(),
    cookies: z.array(CookieSchema),
    headers: z.array(NameValueSchema),
    queryString: z.array(NameValueSchema),
    postData: HarPostDataSchema.optional(),
    headersSize: z.number().int(),
    bodySize: z.number().int(),
  }),
  response: z.looseObject({
    status: z.number().int(),
    statusText: z.string(),
    httpVersion: z.string(),
    cookies: z.array(CookieSchema),
    headers: z.array(NameValueSchema),
    content: HarContentSchema,
    redirectURL: z.string(),
    headersSize: z.number().int(),
    bodySize: z.number().int(),
  }),
  cache: z.looseObject({}),
  timings: z.looseObject({
    blocked: z.number().optional(),
    dns: z.number().optional(),
    connect: z.number().optional(),
    send: z.number().nonnegative(),
    wait: z.number().nonnegative(),
    receive: z.number().nonnegative(),
    ssl: z.number().optional(),
  }),
  serverIPAddress: z.string().optional(),
  connection: z.string().optional(),
  comment: z.string().optional(),
});

export const HarSchema = z.looseObject({
  log: z.looseObject({
    version: z.string(),
    creator: z.looseObject({ name: z.string(), version: z.string() }),
    browser: z.looseObject({ name: z.string(), version: z.string() }).optional(),
    pages: z
      .array(
        z.looseObject({
          startedDateTime: IsoDateSchema,
          id: z.string(),
          title: z.string(),
          pageTimings: z.looseObject({ onContentLoad: z.number().optional(), onLoad: z.number().optional() }),
        }),
      )
      .optional(),
    entries: z.array(HarEntrySchema),
    comment: z.string().optional(),
  }),
});
export type Har = z.infer<typeof HarSchema>;
export type HarEntry = z.infer<typeof HarEntrySchema>;
export type HarPage = NonNullable<Har["log"]["pages"]>[number];

/** A body without its bytes: the bytes travel in HAR's own `postData.text` / `content.text`. */
export const BodyMetaSchema = BodySchema.omit({ data: true });

/** `entries[]._hopscope`: the parts of an exchange HAR has no field for. */
export const HarEntryExtSchema = z.object({
  exchange: ExchangeSchema.omit({
    requestHeaders: true,
    responseHeaders: true,
    requestBody: true,
    responseBody: true,
  }).extend({
    requestBody: BodyMetaSchema.nullable(),
    responseBody: BodyMetaSchema.nullable(),
  }),
});
export type HarEntryExt = z.infer<typeof HarEntryExtSchema>;

/** `pages[]._hopscope`: the trace (without exchanges, rebuilt from the entries) and the bundle's stamp. */
export const HarPageExtSchema = z.object({
  version: z.literal(1),
  exportedAt: z.string(),
  generator: z.object({ name: z.string(), version: z.string() }),
  trace: TraceSummarySchema.extend({ links: z.array(LinkSchema) }),
});
export type HarPageExt = z.infer<typeof HarPageExtSchema>;

/**
 * A HAR duration, milliseconds (-1: not applicable). Capped at about 31 years so that a start plus every
 * phase stays a time a date can hold; a larger one is refused with its field named.
 */
const HarDurationSchema = z.number().max(1e12, "a duration over 1e12 ms (about 31 years), longer than any request");

const HarInputEntrySchema = z.looseObject({
  pageref: z.string().optional(),
  startedDateTime: IsoDateSchema,
  time: HarDurationSchema.optional(),
  request: z.looseObject({
    method: z.string(),
    url: z.url(),
    headers: z.array(NameValueSchema).default([]),
    postData: HarPostDataSchema.partial({ mimeType: true }).optional(),
  }),
  response: z.looseObject({
    status: z.number().int(),
    headers: z.array(NameValueSchema).default([]),
    content: HarContentSchema.partial({ mimeType: true, size: true }).optional(),
    _error: z.string().nullish(),
  }),
  timings: z
    .looseObject({
      blocked: HarDurationSchema.optional(),
      dns: HarDurationSchema.optional(),
      connect: HarDurationSchema.optional(),
      send: HarDurationSchema.optional(),
      wait: HarDurationSchema.optional(),
      receive: HarDurationSchema.optional(),
    })
    .optional(),
  _hopscope: z.unknown().optional(),
});
export type HarInputEntry = z.infer<typeof HarInputEntrySchema>;

export const HarInputSchema = z.looseObject({
  log: z.looseObject({
    creator: z.looseObject({ name: z.string(), version: z.string() }).optional(),
    pages: z
      .array(z.looseObject({ id: z.string(), title: z.string().optional(), _hopscope: z.unknown().optional() }))
      .optional(),
    entries: z.array(HarInputEntrySchema),
    /** The notes file's changes during the trace (`NotesChange`s, as in a hopscope file's `notes`). */
    _notesChanges: z.array(NotesChangeSchema).optional(),
  }),
});
