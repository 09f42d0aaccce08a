/** The permission engine: rules from config, one evaluator, and the queue of questions for the user. */
export type { Action, AskInput, PermissionRequest, Reply, Rule, RuleSource, Ruleset } from "./types.js";
export { matchWildcard } from "./wildcard.js";
export {
  expandHome,
  isAction,
  permissionConfigSchema,
  rulesFromConfig,
  validatePermissionConfig,
  type PatternActions,
  type PermissionConfig,
  type RulesFromConfigOptions,
} from "./config.js";
export { describeRule, evaluate, explain, matches, type Evaluation, type Explanation, type RuleLayer } from "./evaluate.js";
export { allowCovers, isUnresolved, UNRESOLVED } from "./unresolved.js";
export {
  AGENT_NAMES,
  agentRules,
  composeAgentRuleset,
  defaultRules,
  withToolOutputAccess,
  type AgentName,
  type AgentRulesOptions,
  type ComposeOptions,
} from "./agents.js";
export {
  CorrectedError,
  DeniedError,
  isPermissionError,
  RejectedError,
  type PermissionError,
  type QuotedRule,
} from "./errors.js";
export { ascendingIds, PermissionEngine, type AskRequest, type PermissionEngineOptions } from "./engine.js";
export { disabledTools, permissionKeyOf } from "./disabled.js";
export {
  contains,
  externalDirectoryAsk,
  type ExternalDirectoryAsk,
  type ExternalDirectoryInput,
} from "./external-directory.js";
export { bothShapesMessage, engineName, rulesFromV2, v2Name, V2PermissionsSchema, V2RuleSchema, type V2Rule } from "./v2.js";
