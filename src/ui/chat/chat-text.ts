/** Words and small pure helpers the chat components share: easy to test, no DOM. */
import type { AgentChoice, ChatStatus, ModelChoice } from "../../session/chat/chat-view.js";
import type { Tokens } from "../../session/record/message.js";

/** The next primary agent after `current` (Tab in the prompt box), wrapping round. */
export function nextAgent(agents: readonly AgentChoice[], current: string): string | undefined {
  if (agents.length === 0) return undefined;
  const index = agents.findIndex((agent) => agent.name === current);
  return agents[(index + 1) % agents.length]!.name;
}

const MIME_BY_EXTENSION: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  svg: "image/svg+xml",
  pdf: "application/pdf",
  json: "application/json",
  md: "text/markdown",
  html: "text/html",
  css: "text/css",
  js: "text/javascript",
  mjs: "text/javascript",
  ts: "text/x-typescript",
  tsx: "text/x-typescript",
  jsx: "text/javascript",
  py: "text/x-python",
  rs: "text/x-rust",
  go: "text/x-go",
  sh: "text/x-shellscript",
  yaml: "text/yaml",
  yml: "text/yaml",
  toml: "text/x-toml",
  csv: "text/csv",
  xml: "application/xml",
  txt: "text/plain",
};

/** The mime type an attached workspace file is sent with, from its extension; text/plain when unknown. */
export function mimeOfPath(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return "text/plain";
  return MIME_BY_EXTENSION[name.slice(dot + 1).toLowerCase()] ?? "text/plain";
}

/** A workspace path as the file:// URL a file part carries. */
export function fileURLOfPath(path: string): string {
  return `file://${path.startsWith("/") ? "" : "/"}${path.split("/").map(encodeURIComponent).join("/")}`;
}

/** The `@prefix` being typed just before the caret, if any: what the completion list looks up. */
export function mentionAt(text: string, caret: number): { start: number; prefix: string } | undefined {
  const match = /(^|\s)@([^\s@]*)$/.exec(text.slice(0, caret));
  if (!match) return undefined;
  return { start: caret - match[2]!.length - 1, prefix: match[2]! };
}

/** Whole seconds left until `next`, never below zero. */
export function secondsUntil(next: number, now: number): number {
  return Math.max(0, Math.ceil((next - now) / 1000));
}

export function statusText(status: ChatStatus, now: number): string {
  switch (status.type) {
    case "idle":
      return "Ready";
    case "busy":
      return `Working… step ${status.step}`;
    case "retry":
      return `Retrying in ${secondsUntil(status.next, now)} s (attempt ${status.attempt}): ${status.message}`;
  }
}

/** "0:07", "2:15", "1:02:03": how long the turn has been going, for the status line. */
export function elapsedText(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const seconds = String(total % 60).padStart(2, "0");
  const minutes = Math.floor(total / 60);
  if (minutes < 60) return `${minutes}:${seconds}`;
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, "0")}:${seconds}`;
}

export function tokensText(tokens: Tokens, cost: number, reason?: string): string {
  const parts = [`${tokens.input.toLocaleString("en")} in`, `${tokens.output.toLocaleString("en")} out`];
  if (tokens.reasoning > 0) parts.push(`${tokens.reasoning.toLocaleString("en")} reasoning`);
  if (tokens.cache.read > 0) parts.push(`${tokens.cache.read.toLocaleString("en")} cached`);
  parts.push(cost > 0 ? `$${cost < 0.01 ? cost.toFixed(4) : cost.toFixed(2)}` : "$0");
  if (reason) parts.push(reason);
  return parts.join(" · ");
}

const ERROR_TITLES: Record<string, string> = {
  auth: "The provider refused the key",
  credit: "No credit left with the provider",
  model: "Model not found",
  context: "The conversation is too long for the model",
  network: "The provider could not be reached",
  // The browser cannot tell which: a stopped server and a CORS refusal fail the same way.
  cors: "Could not reach the server (not running, or it refuses this page's origin)",
  rate: "Rate limited by the provider",
  server: "The provider failed",
  aborted: "Stopped",
  interrupted: "Interrupted",
};

export function errorTitle(kind: string): string {
  return ERROR_TITLES[kind] ?? "The step failed";
}

/** Why the prompt box cannot send, or undefined when it can. */
export function notReadyReason(models: readonly ModelChoice[], current: ModelChoice | undefined): string | undefined {
  if (models.length === 0) return "No model is configured: add a provider key (Keys…) to start.";
  if (!models.some((model) => model.ready)) return "No provider has a key yet: add one (Keys…) to start, or watch the recorded demo.";
  if (!current) return "Pick a model above to start.";
  if (!current.ready) return `${current.name} has no key: add a ${current.providerID} key (Keys…) or pick another model.`;
  return undefined;
}
