/**
 * Decides tool calls against rules and, when the rules say "ask", holds the call until the user replies.
 *
 * The engine owns two pieces of state: the requests waiting for a reply, and the approvals the user granted
 * with "always". Approvals are appended after the caller's ruleset on every check, so they override
 * everything configured, exactly like a rule added at the very end of the config.
 */
import type { Bus } from "../bus.js";
import { CorrectedError, DeniedError, RejectedError } from "./errors.js";
import { evaluate } from "./evaluate.js";
import type { PermissionRequest, Reply, Rule, Ruleset } from "./types.js";
import { matchWildcard } from "./wildcard.js";

export interface PermissionEngineOptions {
  bus: Bus;
  /** Request ids; they must be unique among pending requests. Defaults to ascending `per_…` ids. */
  newId?: () => string;
  /** Called after "always" adds approvals, with all of them, so a caller can persist them. */
  onApprovalsChanged?: (approved: Ruleset) => void;
}

export type AskRequest = Omit<PermissionRequest, "id">;

interface Waiting {
  request: PermissionRequest;
  resolve: () => void;
  reject: (error: Error) => void;
}

export class PermissionEngine {
  private readonly bus: Bus;
  private readonly newId: () => string;
  private readonly onApprovalsChanged: ((approved: Ruleset) => void) | undefined;
  // A Map keeps insertion order, so pending() lists requests in the order they were asked.
  private readonly waiting = new Map<string, Waiting>();
  private approvals: Rule[] = [];

  constructor(options: PermissionEngineOptions) {
    this.bus = options.bus;
    this.newId = options.newId ?? ascendingIds("per_");
    this.onApprovalsChanged = options.onApprovalsChanged;
  }

  /**
   * Resolves when every pattern is allowed, throws DeniedError when any is denied, and otherwise waits for
   * the user. Unlike OpenCode, which stops at the first pattern that asks, we look at all of them first: a
   * call whose third pattern is denied outright should fail now, not after the user approved the first two.
   */
  ask(input: AskRequest, ruleset: Ruleset): Promise<void> {
    let needsUser = false;
    for (const pattern of input.patterns) {
      const { action } = evaluate(input.permission, pattern, ruleset, this.approvals);
      if (action === "deny") {
        return Promise.reject(new DeniedError(ruleset.filter((rule) => matchWildcard(input.permission, rule.permission))));
      }
      if (action === "ask") needsUser = true;
    }
    if (!needsUser) return Promise.resolve();

    const id = this.newId();
    if (this.waiting.has(id))
      return Promise.reject(new Error(`permission request id ${id} is already pending; newId() must return unique ids`));
    const request: PermissionRequest = {
      id,
      sessionID: input.sessionID,
      permission: input.permission,
      patterns: [...input.patterns],
      always: [...input.always],
      metadata: input.metadata,
      ...(input.tool ? { tool: { ...input.tool } } : {}),
    };
    return new Promise<void>((resolve, reject) => {
      this.waiting.set(id, { request, resolve, reject });
      this.bus.publish("permission.asked", request);
    });
  }

  /**
   * Answers a pending request. Returns false when there is no such request (already answered, cancelled, or
   * never asked), which is not an error: two windows may answer the same prompt.
   */
  reply(requestID: string, reply: Reply, message?: string): boolean {
    const target = this.waiting.get(requestID);
    if (!target) return false;
    const { sessionID } = target.request;

    if (reply === "reject") {
      // A user who says no to one call rarely wants the calls queued behind it either; they get the plain
      // rejection, while any feedback goes with the request it was written for.
      this.settle(target, "reject", message === undefined ? new RejectedError() : new CorrectedError(message), message);
      for (const other of this.sessionWaiting(sessionID)) this.settle(other, "reject", new RejectedError());
      return true;
    }

    if (reply === "once") {
      this.settle(target, "once");
      return true;
    }

    for (const pattern of target.request.always) {
      this.approvals.push({ permission: target.request.permission, pattern, action: "allow", source: "approval" });
    }
    this.settle(target, "always");
    // Requests queued in the same session that this approval now covers would only make the user click again.
    // They are judged against approvals alone: their own rulesets said "ask", and only the new grant changed.
    for (const other of this.sessionWaiting(sessionID)) {
      const covered = other.request.patterns.every(
        (pattern) => evaluate(other.request.permission, pattern, this.approvals).action === "allow",
      );
      if (covered) this.settle(other, "always");
    }
    this.notifyApprovals();
    return true;
  }

  /** Waiting requests, oldest first; only one session's when a session id is given. */
  pending(sessionID?: string): PermissionRequest[] {
    return [...this.waiting.values()].map((w) => w.request).filter((request) => sessionID === undefined || request.sessionID === sessionID);
  }

  /** The user's "always" grants, oldest first. A copy: approvals change only through reply() and loadApprovals(). */
  get approved(): readonly Readonly<Rule>[] {
    return this.approvals.map((rule) => Object.freeze({ ...rule }));
  }

  /**
   * Replaces the approvals, e.g. with ones persisted by an earlier run. Does not call onApprovalsChanged: the
   * caller already has these, and echoing them back would make a loader write what it just read.
   */
  loadApprovals(rules: Ruleset): void {
    this.approvals = rules.map(({ permission, pattern, action }) => ({ permission, pattern, action, source: "approval" }));
  }

  /**
   * Withdraws one waiting request (its call was aborted) without touching the session's others, as a
   * user's reject would. Returns false when it was no longer waiting.
   */
  cancel(requestID: string): boolean {
    const waiting = this.waiting.get(requestID);
    if (!waiting) return false;
    this.settle(waiting, "reject", new RejectedError());
    return true;
  }

  /** Rejects a session's waiting requests, e.g. when its run is aborted. Returns how many there were. */
  cancelSession(sessionID: string): number {
    const doomed = this.sessionWaiting(sessionID);
    for (const waiting of doomed) this.settle(waiting, "reject", new RejectedError());
    return doomed.length;
  }

  private sessionWaiting(sessionID: string): Waiting[] {
    return [...this.waiting.values()].filter((w) => w.request.sessionID === sessionID);
  }

  private settle(waiting: Waiting, reply: Reply, error?: Error, message?: string): void {
    const { id, sessionID } = waiting.request;
    // Removed before anyone hears about it, so a subscriber that lists pending() sees the new state.
    if (!this.waiting.delete(id)) return;
    if (error) waiting.reject(error);
    else waiting.resolve();
    this.bus.publish("permission.replied", {
      sessionID,
      requestID: id,
      reply,
      ...(message === undefined ? {} : { message }),
    });
  }

  private notifyApprovals(): void {
    if (!this.onApprovalsChanged) return;
    try {
      this.onApprovalsChanged(this.approved.map((rule) => ({ ...rule })));
    } catch (error) {
      // Failing to persist must not undo an answer the user already gave and the waiting call already got.
      console.error("onApprovalsChanged failed:", error);
    }
  }
}

/**
 * Ids that sort in creation order (so logs and UIs can order by id): milliseconds, then a counter for ids
 * made within the same millisecond. The clock is never allowed to run backwards.
 */
export function ascendingIds(prefix: string): () => string {
  const COUNTER_LIMIT = 36 ** 4;
  let last = 0;
  let counter = 0;
  return () => {
    const now = Date.now();
    if (now > last) {
      last = now;
      counter = 0;
    } else if (++counter >= COUNTER_LIMIT) {
      last += 1;
      counter = 0;
    }
    return `${prefix}${last.toString(36).padStart(9, "0")}${counter.toString(36).padStart(4, "0")}`;
  };
}
