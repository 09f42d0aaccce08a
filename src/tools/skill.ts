/**
 * skill: returns a skill's instructions (its SKILL.md after the frontmatter) and some of the files beside
 * it. The description lists the skills the agent may load; the session found them when it opened.
 */
import { join, relative } from "pathe";
import { z } from "zod";
import { evaluate } from "./permission/evaluate.js";
import type { SkillInfo } from "./ports/session-services.js";
import { sessionOf } from "./ports/session-of.js";
import { Tool, type Initialized } from "./tool.js";
import DESCRIPTION from "./skill.txt?raw";

/** In place of the list when there is none (OpenCode then replaces the whole description with a similar line). */
const NONE = "No skills are currently available.";
/** Files listed beside a skill, at most (the model reads the ones it needs). */
const FILE_LIMIT = 10;

export const parameters = z.object({
  name: z.string().describe("The name of the skill from available_skills (e.g., 'a', 'b', 'c', ...)"),
});

function visible(skills: readonly SkillInfo[], permission: Parameters<typeof evaluate>[2] | undefined): SkillInfo[] {
  return permission ? skills.filter((skill) => evaluate("skill", skill.name, permission).action !== "deny") : [...skills];
}

export const SkillTool = Tool.define("skill", async (init): Promise<Initialized<typeof parameters>> => {
  const skills = visible(init?.session?.skills() ?? [], init?.agent?.permission);
  const list =
    skills.length === 0 ? NONE : `## Available Skills\n${skills.map((skill) => `- **${skill.name}**: ${skill.description}`).join("\n")}`;
  const description = DESCRIPTION.trim().replace("{skills}", list);
  const examples = skills
    .slice(0, 3)
    .map((skill) => `'${skill.name}'`)
    .join(", ");
  return {
    description,
    parameters: examples
      ? parameters.extend({ name: z.string().describe(`The name of the skill from available_skills (e.g., ${examples}, ...)`) })
      : parameters,
    async execute(args, ctx) {
      const all = sessionOf(ctx, "skill").skills();
      const skill = all.find((one) => one.name === args.name);
      if (!skill) throw new Error(`Skill "${args.name}" not found. Available skills: ${all.map((one) => one.name).join(", ") || "none"}`);
      await ctx.ask({ permission: "skill", patterns: [args.name], always: [args.name], metadata: {} });
      const files = await sampleFiles(ctx.runtime.fs, skill.dir);
      const output = [
        `<skill_content name="${skill.name}">`,
        `# Skill: ${skill.name}`,
        "",
        skill.content,
        "",
        `Base directory for this skill: file://${skill.dir}`,
        "Relative paths in this skill (e.g., scripts/, reference/) are relative to this base directory.",
        "Note: file list is sampled.",
        "",
        "<skill_files>",
        ...files.map((file) => `<file>${file}</file>`),
        "</skill_files>",
        "</skill_content>",
      ].join("\n");
      return { title: `Loaded skill: ${skill.name}`, metadata: { name: skill.name, dir: skill.dir }, output };
    },
  };
});

/** Up to FILE_LIMIT files under the skill's folder (SKILL.md itself left out), shallow ones first. */
async function sampleFiles(fs: import("../runtime/types.js").RuntimeFs, dir: string): Promise<string[]> {
  const found: string[] = [];
  let level = [dir];
  for (let depth = 0; depth < 4 && level.length > 0 && found.length < FILE_LIMIT; depth++) {
    const next: string[] = [];
    for (const folder of level) {
      const entries = await fs.readdir(folder).catch(() => []);
      for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
        const path = join(folder, entry.name);
        if (entry.type === "directory") next.push(path);
        else if (entry.type === "file" && relative(dir, path) !== "SKILL.md" && found.length < FILE_LIMIT) found.push(path);
      }
    }
    level = next;
  }
  return found;
}
