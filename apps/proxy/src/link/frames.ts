/** Frames of the live feed before the feed numbers them: as the recording thread announces them, and as built on the main thread. */
import type { ServerFrame } from "@hopscope/shared/trace/schemas";

type WithoutSeq<T> = T extends unknown ? Omit<T, "seq"> : never;

/** An event the recorder announces; the feed adds `seq`. */
export type FeedEvent = WithoutSeq<Exclude<ServerFrame, { type: "snapshot" }>>;

/**
 * A frame the recording thread has serialised already: `json()` is the frame without its seq, a JSON
 * object (the feed adds `"seq"` before its closing brace). Strings cross threads far cheaper than objects.
 */
export interface JsonEvent {
  json: () => string;
  size: number;
}

/**
 * A frame the recording thread announced while nobody was subscribed: kept there unserialised, as its
 * `park` number, and fetched only if a reconnecting client resumes past it.
 */
export interface ParkedEvent {
  park: number;
  size: number;
}

export type AnyEvent = FeedEvent | JsonEvent | ParkedEvent;

export type Announce = (event: AnyEvent) => void;
