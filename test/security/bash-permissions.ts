/**
 * Runs the real bash tool (through the harness a session uses) with its asks decided by the real permission
 * engine against config rules: a rule that allows lets the call on, one that denies makes the tool throw
 * DeniedError, and a question for the user is answered "reject" and recorded, so a case can tell "denied by
 * a rule" from "asked" from "ran".
 */
import { Bus } from "../../src/tools/bus.js";
import { rulesFromConfig } from "../../src/tools/permission/config.js";
import { PermissionEngine } from "../../src/tools/permission/engine.js";
import { DeniedError, RejectedError } from "../../src/tools/permission/errors.js";
import type { AskInput } from "../../src/tools/permission/types.js";
import type { Runtime } from "../../src/runtime/types.js";
import { runBash, type BashRun } from "../tools/bash/harness.js";

export type Outcome =
  | { kind: "ran"; run: BashRun }
  | { kind: "denied"; asks: AskInput[] }
  | { kind: "asked"; asked: AskInput; asks: AskInput[] };

export async function runWithRules(runtime: Runtime, command: string, permission: unknown): Promise<Outcome> {
  const engine = new PermissionEngine({ bus: new Bus() });
  const ruleset = rulesFromConfig(permission, { home: "/home/user" });
  const asks: AskInput[] = [];
  let asked: AskInput | undefined;
  const answer = async (ask: AskInput) => {
    asks.push(ask);
    const decision = engine.ask({ sessionID: "s", ...ask }, ruleset);
    const waiting = engine.pending("s")[0];
    if (waiting) {
      asked = ask;
      engine.reply(waiting.id, "reject");
    }
    await decision;
  };
  try {
    const run = await runBash(runtime, { command, description: "attack" }, { answer });
    return { kind: "ran", run };
  } catch (error) {
    if (error instanceof DeniedError) return { kind: "denied", asks };
    if (error instanceof RejectedError && asked) return { kind: "asked", asked, asks };
    throw error;
  }
}
