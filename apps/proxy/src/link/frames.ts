/** Frames of the live feed before the feed numbers them. */
import type { ServerFrame } from "@hopscope/shared/trace/schemas";

type WithoutSeq<T> = T extends unknown ? Omit<T, "seq"> : never;

/** An event the recorder announces; the feed adds `seq`. */
export type FeedEvent = WithoutSeq<Exclude<ServerFrame, { type: "snapshot" }>>;

/**
 * An event built only if someone reads it: at once when a live client is connected, otherwise when a
 * reconnecting client resumes past it (see FrameRing). `size` estimates its serialised bytes.
 * `build` runs later than the announce, so it must capture what it reports at announce time.
 */
export interface LazyEvent {
  lazy: () => FeedEvent;
  size: number;
}

/**
 * A frame the recording thread has serialised already: `json()` is the frame without its seq, a JSON
 * object (the feed adds `"seq"` before its closing brace). Strings cross threads far cheaper than objects.
 */
export interface JsonEvent {
  json: () => string;
  size: number;
}

/**
 * A frame the recording thread announced while nobody was watching: kept there unserialised, as its
 * `park` number, and fetched only if a reconnecting client resumes past it.
 */
export interface ParkedEvent {
  park: number;
  size: number;
}

export type AnyEvent = FeedEvent | LazyEvent | JsonEvent | ParkedEvent;

export type Announce = (event: AnyEvent) => void;
