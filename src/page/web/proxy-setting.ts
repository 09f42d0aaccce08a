/**
 * The person's own fetch proxy for the page, remembered in this browser (localStorage), never in the
 * workspace: a workspace's file must not be able to route the person's fetches through a server of its
 * choosing. The workspace's `workbench.fetchProxy` is used only when no own proxy is set and the
 * workspace is trusted.
 */
import { proxyTemplateProblem, type FetchProxy } from "./page-web.js";

const KEY = "workbench.fetchProxy";

function storage(): Storage | undefined {
  try {
    return typeof localStorage === "undefined" ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

export function savedFetchProxy(): string | undefined {
  const value = storage()?.getItem(KEY)?.trim();
  return value ? value : undefined;
}

/** Saves (or with "" clears) the person's proxy; throws with what is wrong when the template is not usable. */
export function saveFetchProxy(template: string): void {
  const value = template.trim();
  if (value === "") {
    storage()?.removeItem(KEY);
    return;
  }
  const problem = proxyTemplateProblem(value);
  if (problem) throw new Error(problem);
  const store = storage();
  if (!store)
    throw new Error(
      "this browser does not let the page remember settings (storage is off): allow site data, or use opencode.json's workbench.fetchProxy",
    );
  store.setItem(KEY, value);
}

/**
 * The proxy in force: the person's, else a trusted workspace's (if usable). `ownAllowed` false (an embed's
 * frame, where a host page starts the calls and reads their output) leaves the person's own out.
 */
export function proxyInForce(configured: unknown, trusted: boolean, ownAllowed = true): FetchProxy | undefined {
  const own = ownAllowed ? savedFetchProxy() : undefined;
  if (own) return { template: own, source: "settings" };
  if (trusted && typeof configured === "string" && configured.trim() && !proxyTemplateProblem(configured.trim()))
    return { template: configured.trim(), source: "opencode.json" };
  return undefined;
}
