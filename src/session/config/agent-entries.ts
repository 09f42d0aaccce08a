/**
 * One `agent.<name>` entry of opencode.json, or one markdown agent's frontmatter, checked and normalised
 * as OpenCode does: legacy `tools` switches become permission entries under `permission`, `maxSteps` counts
 * only when `steps` is absent, and any key the schema does not know goes into `options` (and so on to the
 * provider). Errors name the exact place: `agent.review.temperature: must be a number, e.g. 0.2`.
 */
import { z } from "zod";
import { validatePermissionConfig, type PatternActions, type PermissionConfig } from "../../tools/permission/config.js";
import type { Action } from "../../tools/permission/types.js";
import { bothShapesMessage, V2PermissionsSchema, type V2Rule } from "../../tools/permission/v2.js";
import type { ModelRef } from "../record/message.js";
import { errorMessage } from "../../base/error-message.js";

const AGENT_MODES = ["primary", "subagent", "all"] as const;
export type AgentMode = (typeof AGENT_MODES)[number];

const THEME_COLORS = ["primary", "secondary", "accent", "success", "warning", "error", "info"];

/** `"provider/model"`, split at the first slash (`openrouter/anthropic/x` is provider openrouter). */
function parseModelRef(value: string): ModelRef | undefined {
  const slash = value.indexOf("/");
  if (slash <= 0 || slash === value.length - 1) return undefined;
  return { providerID: value.slice(0, slash), modelID: value.slice(slash + 1) };
}

/** One agent's settings, as `agent.<name>` in opencode.json and a markdown agent's frontmatter hold them. */
export const AgentEntrySchema = z
  .object({
    name: z.string({ error: "must be a string: the agent's name" }).min(1, { error: "must not be empty" }).optional(),
    description: z.string({ error: "must be a string saying when to use this agent" }).optional(),
    mode: z.enum(AGENT_MODES, { error: `must be "primary", "subagent" or "all"` }).optional(),
    model: z
      .string({ error: `must be a string "provider/model", e.g. "anthropic/claude-sonnet-4-5"` })
      .refine((value) => parseModelRef(value) !== undefined, { error: `must be "provider/model", e.g. "anthropic/claude-sonnet-4-5"` })
      .optional(),
    variant: z.string({ error: "must be a string naming one of the model's variants" }).optional(),
    temperature: z.number({ error: "must be a number, e.g. 0.2" }).optional(),
    top_p: z
      .number({ error: "must be a number between 0 and 1" })
      .min(0, { error: "must be between 0 and 1" })
      .max(1, { error: "must be between 0 and 1" })
      .optional(),
    prompt: z.string({ error: 'must be a string (in opencode.json usually "{file:./prompts/x.md}")' }).optional(),
    tools: z
      .record(z.string(), z.boolean({ error: "must be true or false" }), { error: "must be an object of tool names to true or false" })
      .optional(),
    permission: z.unknown().optional(),
    // OpenCode V2's spellings: an ordered rule list, `system` for prompt, `disabled` for disable.
    permissions: V2PermissionsSchema.optional(),
    system: z.string({ error: "must be a string: the agent's system prompt" }).optional(),
    disabled: z.boolean({ error: "must be true or false" }).optional(),
    steps: z
      .number({ error: "must be a whole number above 0" })
      .int({ error: "must be a whole number above 0" })
      .positive({ error: "must be a whole number above 0" })
      .optional(),
    maxSteps: z.number({ error: "must be a whole number above 0 (prefer steps)" }).int().positive().optional(),
    disable: z.boolean({ error: "must be true or false" }).optional(),
    hidden: z.boolean({ error: "must be true or false" }).optional(),
    // An unquoted `color: #fff` in frontmatter is a comment, so null; it means no color, as in OpenCode.
    color: z
      .string({ error: `must be "#RRGGBB" or one of ${THEME_COLORS.join(", ")}` })
      .refine((value) => /^#[0-9a-fA-F]{6}$/.test(value) || THEME_COLORS.includes(value), {
        error: `must be "#RRGGBB" or one of ${THEME_COLORS.join(", ")}`,
      })
      .nullish(),
    options: z.record(z.string(), z.unknown(), { error: "must be an object of provider options" }).optional(),
  })
  .catchall(z.unknown());

const KNOWN_KEYS = new Set(Object.keys(AgentEntrySchema.shape));

/** An agent entry after checking: what one config layer says about one agent. */
export interface AgentEntry {
  name?: string;
  description?: string;
  mode?: AgentMode;
  model?: ModelRef;
  variant?: string;
  temperature?: number;
  topP?: number;
  prompt?: string;
  steps?: number;
  disable?: boolean;
  hidden?: boolean;
  color?: string;
  options: Record<string, unknown>;
  /** `tools` folded in under `permission`, in OpenCode's key order. */
  permission?: Exclude<PermissionConfig, Action>;
  /** OpenCode V2's ordered `permissions` list, applied after `permission`. */
  permissions?: V2Rule[];
}

export class AgentConfigError extends Error {
  override readonly name = "AgentConfigError";
}

/**
 * Checks an agent entry; `at` names where it sits (`agent.review`, or `frontmatter` for a markdown file)
 * and starts every error. Throws an AgentConfigError listing every problem found.
 */
export function parseAgentEntry(raw: unknown, at: string): AgentEntry {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new AgentConfigError(`${at} must be an object of agent settings (description, mode, model, prompt, permission, ...)`);
  }
  const result = AgentEntrySchema.safeParse(raw);
  const problems = result.success ? [] : result.error.issues.map((issue) => `${at}${pathText(issue.path)}: ${issue.message}`);
  let permission: PermissionConfig | undefined;
  const rawPermission = (raw as Record<string, unknown>).permission;
  if (rawPermission !== undefined) {
    try {
      permission = validatePermissionConfig(rawPermission, `${at}.permission`);
    } catch (error) {
      problems.push(errorMessage(error));
    }
  }
  if (rawPermission !== undefined && (raw as Record<string, unknown>).permissions !== undefined) problems.push(bothShapesMessage(`${at}.`));
  if (!result.success || problems.length > 0) throw new AgentConfigError(problems.join("; "));
  const value = result.data;
  const options: Record<string, unknown> = { ...(value.options ?? {}) };
  for (const [key, extra] of Object.entries(value)) if (!KNOWN_KEYS.has(key)) options[key] = extra;
  const entry: AgentEntry = { options };
  if (value.name !== undefined) entry.name = value.name;
  if (value.description !== undefined) entry.description = value.description;
  if (value.mode !== undefined) entry.mode = value.mode;
  if (value.model !== undefined) entry.model = parseModelRef(value.model);
  if (value.variant !== undefined) entry.variant = value.variant;
  if (value.temperature !== undefined) entry.temperature = value.temperature;
  if (value.top_p !== undefined) entry.topP = value.top_p;
  if (value.prompt !== undefined) entry.prompt = value.prompt;
  else if (value.system !== undefined) entry.prompt = value.system;
  const steps = value.steps ?? value.maxSteps;
  if (steps !== undefined) entry.steps = steps;
  if (value.disable !== undefined) entry.disable = value.disable;
  else if (value.disabled !== undefined) entry.disable = value.disabled;
  if (value.permissions !== undefined) entry.permissions = value.permissions;
  if (value.hidden !== undefined) entry.hidden = value.hidden;
  if (typeof value.color === "string") entry.color = value.color;
  const folded = foldLegacyTools(value.tools, permission);
  if (folded !== undefined) entry.permission = folded;
  return entry;
}

/**
 * OpenCode's older `tools: {bash: false}` switches as permission entries, with `permission` laid over them
 * the way OpenCode merges the two (a key in both keeps the switch's place and takes permission's value).
 * Every editing tool is the `edit` permission.
 */
export function foldLegacyTools(
  tools: Record<string, boolean> | undefined,
  permission: PermissionConfig | undefined,
): Exclude<PermissionConfig, Action> | undefined {
  if (tools === undefined && permission === undefined) return undefined;
  const folded: Record<string, Action | PatternActions> = {};
  for (const [tool, enabled] of Object.entries(tools ?? {})) {
    folded[["write", "edit", "patch", "multiedit", "apply_patch"].includes(tool) ? "edit" : tool] = enabled ? "allow" : "deny";
  }
  if (typeof permission === "string") folded["*"] = permission;
  else Object.assign(folded, permission ?? {});
  return folded;
}

function pathText(path: readonly PropertyKey[]): string {
  return path
    .map((key) => (typeof key === "string" && /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(String(key))}]`))
    .join("");
}
