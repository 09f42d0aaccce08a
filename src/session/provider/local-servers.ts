/**
 * What to tell a person whose page could not reach a model server on their own machine. A browser
 * reports a refused CORS check and a server that is not running the same way ("Failed to fetch"), so
 * the advice covers both, named for the server the port belongs to.
 */
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "0.0.0.0"]);

export function isLocalURL(url: string | undefined): boolean {
  if (!url) return false;
  try {
    const host = new URL(url).hostname;
    return LOCAL_HOSTS.has(host) || host.endsWith(".localhost");
  } catch {
    return false;
  }
}

function pageOrigin(): string | undefined {
  const location = (globalThis as { location?: { origin?: string } }).location;
  return location?.origin && location.origin !== "null" ? location.origin : undefined;
}

export function localServerHint(url: string): string {
  const parsed = new URL(url);
  const origin = pageOrigin() ?? "this page's origin";
  const port = parsed.port;
  if (port === "11434") {
    return `Is Ollama running? It must also allow this page: quit it and start it with OLLAMA_ORIGINS set, e.g. OLLAMA_ORIGINS="${origin}" ollama serve (on macOS: launchctl setenv OLLAMA_ORIGINS "${origin}", then restart Ollama).`;
  }
  if (port === "1234") {
    return `Is LM Studio's server running? It must also allow this page: start it with \`lms server start --cors\`, or turn on "Enable CORS" in LM Studio's server settings.`;
  }
  return `Is the server at ${parsed.origin} running? It must also answer CORS for ${origin} (llama.cpp allows every origin by default; vLLM: --allowed-origins; LM Studio: --cors; Ollama: OLLAMA_ORIGINS).`;
}
