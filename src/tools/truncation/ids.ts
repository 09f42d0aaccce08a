/**
 * Names for saved outputs: `tool_<12 hex: ms timestamp><4 hex: sequence><10 base36: random>`.
 *
 * - The timestamp comes first and is fixed-width hex, so names sort lexicographically in creation order
 *   and cleanup can read the creation time back from the name alone (no stat, which the webcontainer
 *   backend cannot do).
 * - The sequence orders and separates names made within one millisecond (65,536 per ms; past that the
 *   generator borrows the next millisecond rather than break the order).
 * - The random tail keeps names apart when two generators (two tabs, two processes) share a folder.
 * - Lowercase only: names stay distinct on case-insensitive file systems.
 */
import { ID_PREFIX } from "./constants.js";

const TIME_DIGITS = 12; // 48 bits of milliseconds: good until the year 10889
const SEQUENCE_DIGITS = 4;
const SEQUENCE_LIMIT = 16 ** SEQUENCE_DIGITS;
const RANDOM_DIGITS = 10;
const RANDOM_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

const pattern = new RegExp(`^${ID_PREFIX}_([0-9a-f]{${TIME_DIGITS}})[0-9a-f]{${SEQUENCE_DIGITS}}[0-9a-z]{${RANDOM_DIGITS}}$`);

function randomTail(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(RANDOM_DIGITS));
  let tail = "";
  for (const byte of bytes) tail += RANDOM_ALPHABET[byte % RANDOM_ALPHABET.length];
  return tail;
}

/**
 * A generator of ascending ids. Each generator is monotonic on its own: if the clock steps back, it keeps
 * the last timestamp it used, so ids never go backwards. `clock` is there for tests (old ids for cleanup).
 */
export function createToolIdGenerator(clock: () => number = Date.now): () => string {
  let lastTime = -1;
  let sequence = 0;
  return () => {
    const now = Math.max(0, Math.floor(clock()));
    if (now > lastTime) {
      lastTime = now;
      sequence = 0;
    } else if (++sequence === SEQUENCE_LIMIT) {
      lastTime++;
      sequence = 0;
    }
    const time = lastTime.toString(16).padStart(TIME_DIGITS, "0");
    const seq = sequence.toString(16).padStart(SEQUENCE_DIGITS, "0");
    return `${ID_PREFIX}_${time}${seq}${randomTail()}`;
  };
}

/** The process-wide generator: one for every store, so ids made anywhere in this page still ascend. */
export const nextToolId: () => string = createToolIdGenerator();

/** The millisecond timestamp an id was made at, or undefined if the name is not one of our ids. */
export function toolIdTimestamp(id: string): number | undefined {
  const match = pattern.exec(id);
  return match ? Number.parseInt(match[1]!, 16) : undefined;
}

export function isToolId(name: string): boolean {
  return pattern.test(name);
}
