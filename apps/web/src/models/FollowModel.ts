/**
 * Follow the data across the open trace: builds the follow index from every loaded body and derived
 * view, and answers the current query with the hops it appears in, along the data's path.
 */
import { computed, createModel, effect } from "@preact/signals";
import { bodyText } from "./body";
import {
  alongThePath,
  buildFollowIndex,
  findOccurrences,
  notesFollowDocs,
  type FollowDoc,
  type Occurrence,
} from "./follow-index";
import { hopFor } from "./hops";
import type { NotesModel } from "./NotesModel";
import type { TraceModel } from "./TraceModel";
import type { UiModel } from "./UiModel";
import { appendAll } from "@hopscope/shared/json/extent";

export interface HopOccurrence extends Occurrence {
  hop: number;
}

export const FollowModel = createModel((trace: TraceModel, ui: UiModel, notes: NotesModel) => {
  const index = computed(() => {
    const docs: FollowDoc[] = [];
    for (const x of trace.list.value) {
      const f = trace.full.value.get(x.id);
      if (f?.status !== "ready") continue;
      docs.push({ exchangeId: x.id, side: "request", text: bodyText(f.value.requestBody) });
      docs.push({ exchangeId: x.id, side: "response", text: bodyText(f.value.responseBody) });
      const v = trace.views.value.get(x.id);
      if (v?.status === "ready") {
        if (v.value.prompt)
          docs.push({
            exchangeId: x.id,
            side: "prompt",
            text: v.value.prompt.text,
            plain: true,
            segments: v.value.prompt.segments,
          });
        if (v.value.rawOutput)
          docs.push({ exchangeId: x.id, side: "raw-output", text: v.value.rawOutput.text, plain: true });
      }
    }
    // The notes file is a step on the path: each change sits on the tools/call that made it.
    appendAll(docs, notesFollowDocs(notes.changes.value));
    return buildFollowIndex(docs);
  });

  const occurrences = computed<HopOccurrence[]>(() => {
    // Without a query, never build the index: it parses every loaded body.
    if (!ui.followOpen.value || !ui.followQuery.value.trim()) return [];
    const found = findOccurrences(index.value, ui.followQuery.value);
    const hops = trace.hops.value;
    return found
      .map((o) => {
        const direction = o.side === "request" || o.side === "prompt" || o.side === "notes" ? "request" : "response";
        return { ...o, hop: hopFor(hops, o.exchangeId, direction)?.number ?? 0 };
      })
      .sort((a, b) => a.hop - b.hop);
  });

  /** Along the data's path, and apart: matches inside tool definitions (they did not travel from the user). */
  const ordered = computed(() => alongThePath(occurrences.value));
  /** Hops the value travelled through (tool-definition matches do not count: the path is drawn on these). */
  const hopsWithMatch = computed(() => new Set(ordered.value.path.map((o) => o.hop)));
  const loading = computed(() => [...trace.full.value.values()].some((l) => l.status === "loading"));

  // Following needs every body: load them when a query is first entered for this trace.
  effect(() => {
    if (ui.followOpen.value && trace.loadState.value === "ready" && trace.list.value.length > 0)
      void trace.loadAll({ views: true });
  });

  return { occurrences, ordered, hopsWithMatch, loading };
});
export type FollowModel = InstanceType<typeof FollowModel>;
