/**
 * `/api/exchanges/:id` (headers, bodies, chunks), `/:id/views` (prompt engine views; `?omit=tokens,comparisons`
 * leaves out what the UI asks for only when shown: `/:id/tokens` and `/:id/families`) and `/:id/shapes` (the three
 * dialects).
 */
import { Hono } from "hono";
import { z } from "zod";
import type { Exchange } from "@hopscope/shared/trace/schemas";
import type { RecordingLink } from "../../link/calls";
import type { InFlight } from "../in-flight";
import type { ExchangeViewBuilder } from "../views/exchange-views";
import { ThreeShapesBuilder } from "../views/three-shapes";
import { viewsJsonPieces } from "../views/views-json";
import { piecesBody } from "../json-pieces";
import type { ModelUpstreamProbe } from "../views/upstream-info";
import { notFound } from "./errors";

/** `?omit=tokens,comparisons`: each name once at most, nothing else. */
const OmitSchema = z
  .string()
  .optional()
  .transform((raw) => (raw ? raw.split(",") : []))
  .pipe(
    z.array(
      z.enum(["tokens", "comparisons"], {
        error: "omit takes tokens and/or comparisons, comma-separated (e.g. ?omit=tokens,comparisons)",
      }),
    ),
  );

/** JSON made elsewhere (../views/views-json.ts), answered with the type `c.json` gives. */
const JSON_TYPE = { "Content-Type": "application/json" };

const IdSchema = z.coerce
  .number({ error: "the exchange id must be a number" })
  .int()
  .positive("the exchange id must be a positive integer");

export function exchangesRoutes(deps: {
  link: RecordingLink;
  inFlight: InFlight;
  views: ExchangeViewBuilder;
  probe: ModelUpstreamProbe;
}) {
  const shapes = new ThreeShapesBuilder(deps.link);
  const find = async (raw: string): Promise<Exchange> => {
    const id = IdSchema.parse(raw);
    // In flight first, then the store: an exchange that completes between the two reads has been queued
    // by then, and the store's read commits the queue first, so it is found in one or the other.
    return (
      (await deps.inFlight.exchange(id)) ?? (await deps.link.call("exchange", id)) ?? notFound(`no exchange ${id}`)
    );
  };
  return (
    new Hono()
      .get("/:id", async (c) => c.json(await find(c.req.param("id"))))
      .get("/:id/views", async (c) => {
        const omit = new Set(OmitSchema.parse(c.req.query("omit")));
        const ex = await find(c.req.param("id"));
        const answer = await deps.views.build(ex, { tokens: omit.has("tokens"), comparisons: omit.has("comparisons") });
        return c.body(piecesBody(viewsJsonPieces(answer)), 200, JSON_TYPE);
      })
      .get("/:id/tokens", async (c) =>
        c.body(await deps.views.tokensJson(await find(c.req.param("id"))), 200, JSON_TYPE),
      )
      .get("/:id/families", async (c) => c.json(await deps.views.families(await find(c.req.param("id")))))
      // The same turn in Ollama's, OpenAI's and Anthropic's shape, and the one prompt they all become.
      .get("/:id/shapes", async (c) => {
        const ex = await find(c.req.param("id"));
        const { version } = await deps.probe.get();
        return c.json(
          (await shapes.build(ex, version)) ??
            notFound(`exchange ${ex.id} is not a model chat whose prompt can be rendered, so it has no three shapes`),
        );
      })
  );
}
