/**
 * Skills: `SKILL.md` files (frontmatter `name` and `description`, instructions after) in the skill folders
 * of the global config folder and of the workspace. Global ones come first, so a workspace skill of the
 * same name replaces a global one. A file whose frontmatter is wrong is reported once, as a problem of the
 * session (shown when it opens), and left out; it never stops the others.
 */
import { join } from "pathe";
import type { Runtime } from "../../runtime/types.js";
import type { SkillInfo } from "../../tools/ports/session-services.js";
import { parseFrontmatter } from "./frontmatter.js";
import { errorMessage } from "../../base/error-message.js";

export interface SkillProblem {
  file: string;
  error: string;
}

/** Where skills are looked for, in order (later wins on a name clash). */
export function skillFolders(root: string, globalConfigDir?: string): string[] {
  const global = globalConfigDir ? [join(globalConfigDir, "skill"), join(globalConfigDir, "skills")] : [];
  return [...global, join(root, ".opencode", "skill"), join(root, ".opencode", "skills"), join(root, ".claude", "skills")];
}

const UNSAFE_NAME = /[*?"<>\u0000-\u001f\u007f]/;

/** Deep enough for `skills/<group>/<name>/SKILL.md`; a link loop cannot make the walk endless. */
const MAX_DEPTH = 4;

async function skillFiles(runtime: Runtime, dir: string, depth = 0): Promise<string[]> {
  const entries = await runtime.fs.readdir(dir).catch(() => []);
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.type === "file" && entry.name === "SKILL.md") files.push(path);
    else if (entry.type === "directory" && depth < MAX_DEPTH) files.push(...(await skillFiles(runtime, path, depth + 1)));
  }
  return files;
}

export async function discoverSkills(
  runtime: Runtime,
  folders: readonly string[],
): Promise<{ skills: SkillInfo[]; problems: SkillProblem[] }> {
  const byName = new Map<string, SkillInfo>();
  const problems: SkillProblem[] = [];
  for (const folder of folders) {
    for (const file of await skillFiles(runtime, folder)) {
      try {
        const text = new TextDecoder().decode(await runtime.fs.readFile(file));
        const { attributes, body } = parseFrontmatter(text);
        const { name, description } = attributes;
        if (typeof name !== "string" || name.trim() === "") throw new Error('the frontmatter needs a "name: ..." line naming the skill');
        // The name is the skill permission's pattern (an "always" for "*" would cover every skill) and an
        // attribute in the tool's output, so wildcards, quotes, angle brackets and control characters are out.
        if (UNSAFE_NAME.test(name))
          throw new Error(
            `the skill name ${JSON.stringify(name)} holds a character a name cannot have (* ? " < > or a control character): rename it`,
          );
        if (typeof description !== "string" || description.trim() === "") {
          throw new Error('the frontmatter needs a "description: ..." line saying when to use the skill');
        }
        byName.delete(name);
        byName.set(name, { name, description, location: file, dir: file.slice(0, file.lastIndexOf("/")), content: body.trim() });
      } catch (error) {
        problems.push({ file, error: `skill not loaded: ${errorMessage(error)}` });
      }
    }
  }
  return { skills: [...byName.values()], problems };
}
