/**
 * How deep a parsed JSON value nests, counted without recursion: JSON.parse accepts a value 100,000 arrays
 * deep, but every later step that walks it recursively (the schema, saving, showing a card) overflows the
 * stack, so a deep share must be refused when it is read, not crash when it is opened.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: at, depth } = stack.pop()!;
    if (typeof at !== "object" || at === null) continue;
    if (depth >= limit) return true;
    for (const child of Array.isArray(at) ? at : Object.values(at)) stack.push({ value: child, depth: depth + 1 });
  }
  return false;
}
