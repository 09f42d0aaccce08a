/**
 * The three ways a permission check can fail. Their messages go to the model verbatim, so they are worded for
 * it (and match OpenCode's, which models have seen): a denial quotes the rules so the model can route around
 * them, a rejection says to stop, a correction carries the user's feedback so the model can retry differently.
 */
import type { Action, Ruleset } from "./types.js";

/** A rule as the model gets to see it: where a rule came from is our business, not the model's. */
export interface QuotedRule {
  permission: string;
  pattern: string;
  action: Action;
}

/** A configured rule said "deny"; the user was never asked. */
export class DeniedError extends Error {
  override readonly name = "PermissionDeniedError";
  readonly rules: QuotedRule[];

  /** `relevantRules`: the rules whose permission matches the one requested (the caller filters). */
  constructor(relevantRules: Ruleset) {
    const rules = relevantRules.map(({ permission, pattern, action }) => ({ permission, pattern, action }));
    super(
      `The user has specified a rule which prevents you from using this specific tool call. Here are some of the relevant rules ${JSON.stringify(rules)}`,
    );
    this.rules = rules;
  }
}

/** The user said no, without a word: the agent should stop rather than try something else. */
export class RejectedError extends Error {
  override readonly name = "PermissionRejectedError";

  constructor() {
    super("The user rejected permission to use this specific tool call.");
  }
}

/** The user said no and told the model what to do instead: the loop goes on with that feedback. */
export class CorrectedError extends Error {
  override readonly name = "PermissionCorrectedError";
  readonly feedback: string;

  constructor(feedback: string) {
    super(`The user rejected permission to use this specific tool call with the following feedback: ${feedback}`);
    this.feedback = feedback;
  }
}

type PermissionError = DeniedError | RejectedError | CorrectedError;

function isPermissionError(error: unknown): error is PermissionError {
  return error instanceof DeniedError || error instanceof RejectedError || error instanceof CorrectedError;
}
