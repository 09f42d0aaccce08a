import type { AskInput } from "../permission/types.js";
import { Derivation, type BashPermissions, type DeriveInput } from "./derive.js";

/**
 * What `command` must be allowed before it runs in `input.workdir`. Throws BashParseError ("Failed to parse
 * command...") when the line is not valid bash.
 */
export async function deriveBashPermissions(command: string, input: DeriveInput): Promise<BashPermissions> {
  const derivation = new Derivation(input);
  await derivation.run(command);
  return derivation.result();
}

/**
 * The asks in the order the tool makes them (OpenCode's order): the folders first, then the commands.
 * Empty ones are left out.
 */
export function permissionAsks(permissions: BashPermissions): AskInput[] {
  const asks: AskInput[] = [];
  const external = permissions.externalDirectory;
  if (external.patterns.length > 0) {
    asks.push({
      permission: "external_directory",
      patterns: external.patterns,
      always: external.always,
      metadata: { reasons: external.reasons },
    });
  }
  if (permissions.bash.patterns.length > 0) {
    asks.push({ permission: "bash", patterns: permissions.bash.patterns, always: permissions.bash.always, metadata: {} });
  }
  return asks;
}
