/**
 * What the bash tool asks before a program of the runtime's own fetches (the embedded npm, from its
 * registry: ExecOptions.fetchGate): the `webfetch` permission, with the URL as webfetch would ask it, so
 * the rules written for webfetch (a denied host, `(internal)` for this machine or a private network) hold
 * for npm too. One ask per origin and call: an install reads hundreds of URLs from the same registry.
 * A refusal refuses that fetch (npm then fails saying so) and is handed back when the command ends, so
 * the call ends as any refused permission does.
 */
import { INTERNAL } from "../permission/unresolved.js";
import type { Context } from "../tool.js";
import { internalAddress } from "../web/internal-address.js";

interface FetchGate {
  /** `signal`: a background job's, which withdraws a prompt still waiting when the job is stopped. */
  gate(url: string, signal?: AbortSignal): Promise<void>;
  /** The first refusal, thrown once the command has ended (nothing when every fetch was allowed). */
  rethrow(): void;
}

export function fetchGate(ctx: Context): FetchGate {
  const byOrigin = new Map<string, Promise<void>>();
  let refusal: { error: unknown } | undefined;
  return {
    gate(url, signal) {
      const parsed = new URL(url);
      let asked = byOrigin.get(parsed.origin);
      if (!asked) {
        const internal = ctx.web?.fromThisMachine ? internalAddress(parsed) : null;
        asked = ctx.ask(
          {
            permission: "webfetch",
            patterns: internal ? [url, `${INTERNAL}${url}`] : [url],
            always: internal ? ["*", `${INTERNAL}${parsed.origin}/*`] : ["*"],
            metadata: { url, via: "npm", ...(internal ? { internal } : {}) },
          },
          signal ? { signal } : undefined,
        );
        asked.catch((error: unknown) => {
          refusal ??= { error };
        });
        byOrigin.set(parsed.origin, asked);
      }
      return asked.catch(() => {
        throw new Error(`the webfetch permission refused ${parsed.origin}`);
      });
    },
    rethrow() {
      if (refusal) throw refusal.error;
    },
  };
}
