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

/**
 * The two fixes, in the order to try them: a page cannot tell a stopped server from one that refuses
 * its origin, so the person is told how to start it and then how to let this page in.
 */
export function localServerHint(url: string): string {
  const parsed = new URL(url);
  const origin = pageOrigin() ?? "this page's origin";
  const port = parsed.port;
  if (port === "11434") {
    return `If Ollama is not running, start it (ollama serve). If it is running, it must allow this page: quit it and start it with OLLAMA_ORIGINS set, e.g. OLLAMA_ORIGINS="${origin}" ollama serve (on macOS: launchctl setenv OLLAMA_ORIGINS "${origin}", then restart Ollama).`;
  }
  if (port === "1234") {
    return `If LM Studio's server is not running, start it (lms server start, or Start Server in LM Studio). If it is running, it must allow this page: start it with \`lms server start --cors\`, or turn on "Enable CORS" in LM Studio's server settings.`;
  }
  return `If the server at ${parsed.origin} is not running, start it (or fix the address). If it is running, it must answer CORS for ${origin} (llama.cpp allows every origin by default; vLLM: --allowed-origins; LM Studio: --cors; Ollama: OLLAMA_ORIGINS).`;
}
