/** Types of freshness.mjs (plain JavaScript, so that the unbuilt launcher can use it). */
export declare function newestMtime(dir: string): number;
export declare function isFresh(outputs: string[], sourceDirs: string[], newest?: (dir: string) => number): boolean;
