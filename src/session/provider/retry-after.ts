/**
 * How long a provider asked us to wait, from `retry-after-ms` (milliseconds, OpenAI) or `retry-after`
 * (seconds, or an HTTP date). Undefined when neither is present or readable.
 */
export function retryAfterMs(headers: Readonly<Record<string, string | undefined>> | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const lower = Object.fromEntries(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));
  const ms = Number.parseFloat(lower["retry-after-ms"] ?? "");
  if (Number.isFinite(ms) && ms >= 0) return Math.ceil(ms);
  const raw = lower["retry-after"]?.trim();
  if (!raw) return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) return Math.ceil(Number.parseFloat(raw) * 1000);
  const date = Date.parse(raw);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
