import { edgesOf, resolveFrom, walk, type TreeNode } from "./tree.js";

/**
 * `npm ls`'s tree: the root's dependencies (and, with `depth`, theirs), a package already shown marked
 * "deduped", a dependency with nothing installed "UNMET DEPENDENCY", one whose version does not fit
 * "invalid", packages nothing needs "extraneous". Returns the text and whether all was well.
 */
export function listTree(
  root: TreeNode,
  projectDir: string,
  maxDepth: number,
  satisfiesSpec: (version: string, spec: string) => boolean,
): { text: string; ok: boolean } {
  const lines = [`${root.name ? `${root.name}@${root.version} ` : ""}${projectDir}`];
  let ok = true;
  const shown = new Set<TreeNode>();
  const needed = new Set<TreeNode>();
  walk(root, (node) => {
    for (const edge of edgesOf(node)) {
      const target = resolveFrom(node, edge.name);
      if (target) needed.add(target);
    }
  });
  const visit = (node: TreeNode, prefix: string, level: number) => {
    type Row = { label: string; child?: TreeNode };
    const rows: Row[] = [];
    for (const edge of edgesOf(node)) {
      const target = resolveFrom(node, edge.name);
      if (!target) {
        if (edge.kind === "optional") continue;
        ok = false;
        rows.push({ label: `UNMET DEPENDENCY ${edge.name}@${edge.spec}` });
        continue;
      }
      const invalid = !satisfiesSpec(target.version, edge.spec);
      if (invalid) ok = false;
      const deduped = shown.has(target);
      const from = node === root ? "the root project" : `${node.name}@${node.version}`;
      rows.push({
        label: `${edge.name}@${target.version}${invalid ? ` invalid: "${edge.spec}" from ${from}` : ""}${deduped ? " deduped" : ""}`,
        child: deduped ? undefined : target,
      });
    }
    for (const row of rows) if (row.child) shown.add(row.child);
    if (node === root) {
      for (const [name, child] of node.children) {
        if (needed.has(child)) continue;
        ok = false;
        rows.push({ label: `${name}@${child.version} extraneous` });
      }
      rows.sort((a, b) => a.label.replace(/^UNMET DEPENDENCY /, "").localeCompare(b.label.replace(/^UNMET DEPENDENCY /, ""), "en"));
    }
    rows.forEach((row, index) => {
      const last = index === rows.length - 1;
      const descend = row.child && level < maxDepth ? row.child : undefined;
      const below = descend ? edgesOf(descend).length > 0 : false;
      lines.push(`${prefix}${last ? "└─" : "├─"}${below ? "┬" : "─"} ${row.label}`);
      if (descend && below) visit(descend, `${prefix}${last ? "  " : "│ "}`, level + 1);
    });
  };
  visit(root, "", 0);
  if (lines.length === 1) lines.push("└── (empty)");
  return { text: `${lines.join("\n")}\n\n`, ok };
}
