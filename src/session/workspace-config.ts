/**
 * The workspace's `opencode.json` (or `opencode.jsonc`): permission rules, legacy tool switches,
 * per-agent settings and experimental flags. Read with a JSONC parser, which keeps key order (order is
 * meaning for permission rules) and allows comments; written back the same way, so saving an approval
 * keeps the user's formatting and comments.
 */
import { applyEdits, modify, parse, printParseErrorCode, type ParseError } from "jsonc-parser";
import { join } from "pathe";
import type { Runtime } from "../runtime/types.js";

export interface AgentConfig {
  permission?: unknown;
  tools?: Record<string, boolean>;
}

export interface WorkspaceConfig {
  permission?: unknown;
  tools?: Record<string, boolean>;
  agent?: Record<string, AgentConfig>;
  experimental?: { batch_tool?: boolean; [key: string]: unknown };
}

const NAMES = ["opencode.json", "opencode.jsonc"];

async function findConfig(runtime: Runtime): Promise<string | undefined> {
  for (const name of NAMES) {
    const path = join(runtime.root, name);
    if (await runtime.fs.stat(path).then(() => true, () => false)) return path;
  }
  return undefined;
}

export async function loadWorkspaceConfig(runtime: Runtime): Promise<{ config: WorkspaceConfig; path?: string }> {
  const path = await findConfig(runtime);
  if (!path) return { config: {} };
  const text = new TextDecoder().decode(await runtime.fs.readFile(path));
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false }) as unknown;
  if (errors.length > 0) {
    const first = errors[0]!;
    const line = text.slice(0, first.offset).split("\n").length;
    throw new Error(`${path} is not valid JSON: ${printParseErrorCode(first.error)} at line ${line}. Fix the file, or remove it to use the defaults.`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(`${path} must hold a JSON object ({ "permission": ... }), not ${Array.isArray(value) ? "an array" : typeof value}.`);
  }
  return { config: value as WorkspaceConfig, path };
}

/**
 * Adds approvals ("always allow") to the workspace config as `permission.<permission>.<pattern>: "allow"`,
 * after the rules already there, so they win as they did in the session.
 */
export async function saveApprovals(runtime: Runtime, approvals: Array<{ permission: string; pattern: string }>): Promise<string> {
  const path = (await findConfig(runtime)) ?? join(runtime.root, "opencode.json");
  let text = await runtime.fs.readFile(path).then((bytes) => new TextDecoder().decode(bytes), () => "{}\n");
  const current = parse(text, [], { allowTrailingComma: true }) as WorkspaceConfig | undefined;
  const format = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: "\n" } };
  if (typeof current?.permission === "string") {
    // `"permission": "ask"` means every permission; spelled out, approvals can follow it.
    text = applyEdits(text, modify(text, ["permission"], { "*": current.permission }, format));
  }
  for (const { permission, pattern } of approvals) {
    const existing = (current?.permission as Record<string, unknown> | undefined)?.[permission];
    if (typeof existing === "string") {
      // A single action for every pattern becomes a map, keeping it as the first (lowest) rule.
      text = applyEdits(text, modify(text, ["permission", permission], { "*": existing }, format));
    }
    text = applyEdits(text, modify(text, ["permission", permission, pattern], "allow", format));
  }
  await runtime.fs.writeFile(path, text.endsWith("\n") ? text : `${text}\n`);
  return path;
}
