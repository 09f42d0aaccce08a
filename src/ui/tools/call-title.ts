/**
 * A call's title while the tool has not given one yet (a call waiting for permission has none): what
 * the input says it is about, so a card and its prompt can be told apart from the others queued.
 */
const TITLE_KEYS = ["description", "filePath", "path", "pattern", "url", "query", "command"] as const;

export function provisionalTitle(tool: string, input: Record<string, unknown>): string {
  // bash: the description the model gave, else the command itself.
  for (const key of TITLE_KEYS) {
    const value = input[key];
    if (typeof value === "string" && value.trim() !== "") return oneLine(value);
  }
  for (const value of Object.values(input)) if (typeof value === "string" && value.trim() !== "") return oneLine(value);
  return tool;
}

function oneLine(text: string): string {
  const first = text.trim().split("\n")[0]!;
  return first.length > 120 ? `${first.slice(0, 119)}…` : first;
}

/** The call's title as the card shows it: the tool's own, or the provisional one. */
export function titleOf(call: { tool: string; title: string; input: Record<string, unknown> }): string {
  return call.title !== "" ? call.title : provisionalTitle(call.tool, call.input);
}
