/**
 * OpenCode's substitution over the raw text of a config file, before it is parsed:
 * - `{env:NAME}` becomes the variable's value inserted as is, or "" when it is not set (no error);
 * - `{file:PATH}` becomes the file's trimmed content, JSON-escaped (so the token belongs inside quotes);
 *   `~/` is the home folder, a relative path is relative to the config file's folder; lines starting
 *   with `//` are left alone; a missing file is an error.
 *
 * The page has no environment: it passes an empty map, and keys come from the key dialog instead.
 */
import { isAbsolute, join, resolve } from "pathe";
import { ProviderSetupError } from "./setup-error.js";

export interface SubstitutionContext {
  env: Readonly<Record<string, string | undefined>>;
  /** The folder holding the config file (relative `{file:}` paths start here). */
  configDir: string;
  home: string;
  /** The file's text, or undefined when there is no such file. */
  readFile(path: string): Promise<string | undefined>;
}

const ENV = /\{env:([^}]+)\}/g;
const FILE = /\{file:([^}]+)\}/g;

function filePath(reference: string, context: Pick<SubstitutionContext, "configDir" | "home">): string {
  if (reference.startsWith("~/")) return join(context.home, reference.slice(2));
  if (isAbsolute(reference)) return reference;
  return resolve(context.configDir, reference);
}

export async function substituteConfigText(text: string, context: SubstitutionContext): Promise<string> {
  const withEnv = text.replace(ENV, (_, name: string) => context.env[name] || "");
  const lines = withEnv.split("\n");
  const out: string[] = [];
  for (const line of lines) {
    if (line.trimStart().startsWith("//") || !line.includes("{file:")) {
      out.push(line);
      continue;
    }
    let rebuilt = "";
    let last = 0;
    for (const match of line.matchAll(FILE)) {
      const path = filePath(match[1]!, context);
      const content = await context.readFile(path);
      if (content === undefined) {
        throw new ProviderSetupError(
          "config",
          `bad file reference: "${match[0]}" ${path} does not exist`,
          `Create ${path}, or change the {file:...} reference (relative paths start at the config file's folder; ~/ is your home).`,
        );
      }
      rebuilt += line.slice(last, match.index) + JSON.stringify(content.trim()).slice(1, -1);
      last = match.index + match[0].length;
    }
    out.push(rebuilt + line.slice(last));
  }
  return out.join("\n");
}
