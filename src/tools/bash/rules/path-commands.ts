/** rm, cp, mv, mkdir, touch, chmod, chown, cat, ln, tee...: every operand and glued path value is judged. */
import type { Node } from "web-tree-sitter";
import { dirname } from "pathe";
import { CD_COMMANDS, FOLLOWS_LINKS_WHEN_RECURSING, PATH_COMMANDS, recursesThroughLinks } from "../commands.js";
import { steady } from "../flow.js";
import { literal } from "../words.js";
import { operands } from "./operands.js";
import type { CommandContext, CommandRule, Walker } from "./rule.js";

async function judgePathOperands(walker: Walker, context: CommandContext, name: string, args: Node[]): Promise<void> {
  const found = operands(name, args);
  if (FOLLOWS_LINKS_WHEN_RECURSING.has(name) && recursesThroughLinks(args.map(literal))) {
    // `chmod -RL`, `cp -rL`: every link anywhere below is followed, and we do not walk the tree to find them.
    walker.paths.unresolved({
      command: context.text,
      argument: context.text,
      why: `${name} follows symlinks while recursing, which may lead anywhere`,
    });
  }
  for (const operand of found) {
    if (operand.kind === "glued") await walker.paths.text(context, operand.glued!, operand.node.text, "file");
    else await walker.paths.argument({ command: context.text, node: operand.node, cwds: context.cwds, kind: "file", commandName: name });
  }
  // A symlink's target is read from the link's folder, not the shell's: judge it from there as well.
  if (name === "ln" && found.length >= 2) {
    const link = found[found.length - 1]!;
    const linkText = literal(link.node);
    if (linkText === null) return;
    for (const cwd of context.cwds) {
      if (!("path" in cwd)) continue;
      const linkPath = linkText.startsWith("/") ? linkText : `${cwd.path}/${linkText}`;
      const places = [dirname(linkPath), linkPath];
      for (const target of found.slice(0, -1)) {
        await walker.paths.argument({
          command: context.text,
          node: target.node,
          cwds: places.map((p) => ({ path: p })),
          kind: "file",
          commandName: name,
        });
      }
    }
  }
}

export const pathCommandsRule: CommandRule = {
  // cd and pushd are path commands too, with rules of their own (./cd.ts).
  names: [...PATH_COMMANDS].filter((name) => !CD_COMMANDS.has(name)),
  async run(walker, context, name, args) {
    await judgePathOperands(walker, context, name, args);
    return steady(context.cwds);
  },
};
