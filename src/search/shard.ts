/**
 * Splitting one search among several searchers (the embedded runtime's search workers): each walks the
 * whole tree, which is cheap once listings are cached, but reads and searches only the files whose
 * path falls to its share. By path, not by walk position, so a file always falls to the same searcher
 * and only that one keeps its contents in memory. A reader merges the shares back into walk order by
 * each hit's position in the walk.
 */
export interface Shard {
  /** This searcher's share, 0 ≤ index < count. */
  index: number;
  count: number;
}

/** FNV-1a over the path's UTF-16 units: fast, and spreads similar paths evenly. */
function pathHash(path: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) hash = Math.imul(hash ^ path.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

export function ownsPath(shard: Shard, path: string): boolean {
  return shard.count <= 1 || pathHash(path) % shard.count === shard.index;
}
