/** Frames of the live feed before the feed numbers them. */
import type { ServerFrame } from "@hopscope/shared/trace/schemas";

type WithoutSeq<T> = T extends unknown ? Omit<T, "seq"> : never;

/** An event the recorder announces; the feed adds `seq`. */
export type FeedEvent = WithoutSeq<Exclude<ServerFrame, { type: "snapshot" }>>;

export type Announce = (event: FeedEvent) => void;
