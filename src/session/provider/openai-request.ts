/**
 * OpenCode's one change to what @ai-sdk/openai sends: the Responses API request goes out without the
 * `id` of each earlier input item. Requests are not stored (`store: false`), so OpenAI cannot look those
 * ids up and refuses a request that names them.
 */
import type { FetchFunction } from "./key-scoped-fetch.js";

export function withoutInputItemIds(inner: FetchFunction): FetchFunction {
  const stripped = (input: Parameters<FetchFunction>[0], init?: RequestInit): Promise<Response> => {
    if (typeof init?.body !== "string") return inner(input, init);
    let body: unknown;
    try {
      body = JSON.parse(init.body);
    } catch {
      return inner(input, init);
    }
    const items = (body as { input?: unknown }).input;
    if (!Array.isArray(items)) return inner(input, init);
    for (const item of items) {
      // A reference is nothing but its id (used only when requests are stored).
      if (item && typeof item === "object" && (item as { type?: unknown }).type !== "item_reference") delete (item as { id?: unknown }).id;
    }
    return inner(input, { ...init, body: JSON.stringify(body) });
  };
  return stripped as FetchFunction;
}
