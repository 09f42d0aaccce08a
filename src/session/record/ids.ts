/** Ids that sort in creation order: a prefix, the time, a counter, a little randomness. */
let last = 0;
let counter = 0;

export function ascendingId(prefix: string, now = Date.now()): string {
  if (now === last) counter++;
  else {
    last = now;
    counter = 0;
  }
  const random = Math.floor(Math.random() * 36 ** 4)
    .toString(36)
    .padStart(4, "0");
  return `${prefix}_${now.toString(36).padStart(9, "0")}${counter.toString(36).padStart(3, "0")}${random}`;
}
