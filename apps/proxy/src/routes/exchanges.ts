/** `/api/exchanges/:id` (headers, bodies, chunks) and `/api/exchanges/:id/views` (prompt engine views). */
import { Hono } from "hono";
import { z } from "zod";
import type { Exchange } from "@hopscope/shared/trace/schemas";
import type { TraceStore } from "../store/trace-store";
import type { RecorderClient } from "../recorder-client";
import type { ExchangeViewBuilder } from "../views/exchange-views";
import { notFound } from "./errors";

const IdSchema = z.coerce.number({ error: "the exchange id must be a number" }).int().positive("the exchange id must be a positive integer");

export function exchangesRoutes(deps: { store: TraceStore; recorder: RecorderClient; views: ExchangeViewBuilder }) {
  const find = async (raw: string): Promise<Exchange> => {
    const id = IdSchema.parse(raw);
    // In flight first, then the store: an exchange that completes between the two reads has been queued
    // by then, and the store's read commits the queue first, so it is found in one or the other.
    return (await deps.recorder.inFlightExchange(id)) ?? (await deps.store.getExchange(id)) ?? notFound(`no exchange ${id}`);
  };
  return new Hono()
    .get("/:id", async (c) => c.json(await find(c.req.param("id"))))
    .get("/:id/views", async (c) => c.json(await deps.views.build(await find(c.req.param("id")))));
}
