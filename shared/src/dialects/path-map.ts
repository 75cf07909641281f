/**
 * Where each part of a converted (native) request came from in the client's own JSON: pairs of JSON
 * pointers, native → dialect. A prompt segment names the native field it printed ("/messages/2/content");
 * mapPath turns that into the client's field ("/messages/1/content/0/content" for an Anthropic tool_result).
 * The most specific pair wins, and what is below it carries over ("/tools/0/function/parameters" under a
 * pair "/tools/0/function/parameters" → "/tools/0/input_schema" maps to "/tools/0/input_schema").
 */

export interface PathPair {
  native: string;
  dialect: string;
}

export class PathMap {
  readonly pairs: PathPair[] = [];

  add(native: string, dialect: string): this {
    this.pairs.push({ native, dialect });
    return this;
  }

  /** The client's JSON pointer for a native one, or null when nothing in the client's JSON produced it. */
  map(nativePath: string): string | null {
    let best: PathPair | null = null;
    for (const p of this.pairs) {
      const under = nativePath === p.native || nativePath.startsWith(`${p.native}/`);
      if (under && (!best || p.native.length > best.native.length)) best = p;
    }
    return best ? best.dialect + nativePath.slice(best.native.length) : null;
  }

  toJSON(): PathPair[] {
    return this.pairs;
  }
}

/** The identity map for the native dialects: every path is its own source. */
export function identityPaths(): PathMap {
  return new PathMap().add("", "");
}
