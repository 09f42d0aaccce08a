import type { NpmFetch } from "./registry-client.js";
import { errorMessage } from "../../../base/error-message.js";

/**
 * The variable that names the workbench's fetch proxy to npm in the shell (a URL template: `{url}` is
 * replaced by the encoded target, else the target is appended), as Settings → Web defines it.
 */
export const FETCH_PROXY_VARIABLE = "WORKBENCH_FETCH_PROXY";

function proxied(template: string, target: string): string {
  const encoded = encodeURIComponent(target);
  return template.includes("{url}") ? template.split("{url}").join(encoded) : `${template}${encoded}`;
}

/**
 * npm's fetch: straight to the registry first (no credentials; the public registry allows cross-origin
 * reads), and when that cannot even connect (in a page: a registry without CORS headers) through the
 * fetch proxy, if one is set. A registry's own answer (a 404, a 500) is never retried elsewhere.
 */
export function fetchWithProxy(direct: NpmFetch, proxyTemplate: string | undefined): NpmFetch {
  return async (url, init) => {
    try {
      return await direct(url, init);
    } catch (error) {
      if (!proxyTemplate || init.signal?.aborted) throw error;
      try {
        return await direct(proxied(proxyTemplate, url), init);
      } catch (viaProxy) {
        const reason = errorMessage(viaProxy);
        throw new Error(`${errorMessage(error)}; through the fetch proxy too: ${reason}`, {
          cause: error,
        });
      }
    }
  };
}
