/**
 * OpenCode V2's `patch`: the apply_patch tool under V2's name (same `patchText` parameter, same envelope). It
 * asks `edit` like every tool that writes files, so a V1 or V2 `edit` rule covers it.
 */
import { ApplyPatchTool } from "./apply_patch.js";
import description from "./patch.txt?raw";
import { define } from "./tool.js";

export const PatchTool = define("patch", async (init) => {
  const applyPatch = await ApplyPatchTool.init(init);
  return { ...applyPatch, description: description.trim() };
});
