/**
 * batch (behind `experimental.batch_tool`): up to 25 tool calls run in parallel, each as its own call of
 * the session (own card, own permission prompts), a summary as the output. A call that fails, is denied
 * or is not allowed in a batch fails alone.
 */
import { z } from "zod";
import type { BatchCallResult } from "./ports/session-services.js";
import { sessionOf } from "./ports/session-of.js";
import { Tool } from "./tool.js";
import DESCRIPTION from "./batch.txt?raw";
import { errorMessage } from "../base/error-message.js";

const MAX_BATCH = 25;
const DISALLOWED = new Set(["batch"]);
const NOT_SUGGESTED = new Set(["invalid", "patch", ...DISALLOWED]);

const parameters = z.object({
  tool_calls: z
    .array(
      z.object({
        tool: z.string().describe("The name of the tool to execute"),
        parameters: z.looseObject({}).describe("Parameters for the tool"),
      }),
    )
    .min(1, "Provide at least one tool call")
    .describe("Array of tool calls to execute in parallel"),
});

interface BatchEntry {
  tool: string;
  callID?: string;
  status: "pending" | "completed" | "error";
  error?: string;
}

export const BatchTool = Tool.define("batch", {
  description: DESCRIPTION.trim(),
  parameters,
  formatValidationError(error) {
    const lines = error.issues.map((issue) => `  - ${issue.path.length > 0 ? issue.path.join(".") : "root"}: ${issue.message}`);
    return `Invalid parameters for tool 'batch':\n${lines.join("\n")}\n\nExpected payload format:\n  [{"tool": "tool_name", "parameters": {...}}, {...}]`;
  },
  async execute(args, ctx) {
    const session = sessionOf(ctx, "batch");
    const known = session.toolIds();
    const entries: BatchEntry[] = args.tool_calls.map((call) => ({ tool: call.tool, status: "pending" }));
    const report = () => {
      const done = entries.filter((entry) => entry.status !== "pending").length;
      ctx.metadata({
        title: `Batch execution (${done}/${entries.length} done)`,
        metadata: { calls: entries.map((entry) => ({ ...entry })) },
      });
    };
    const runOne = async (index: number): Promise<void> => {
      const entry = entries[index]!;
      const call = args.tool_calls[index]!;
      let result: BatchCallResult | undefined;
      try {
        if (index >= MAX_BATCH) throw new Error(`Maximum of ${MAX_BATCH} tools allowed in batch`);
        if (DISALLOWED.has(call.tool))
          throw new Error(`Tool '${call.tool}' is not allowed in batch. Disallowed tools: ${[...DISALLOWED].join(", ")}`);
        if (!known.includes(call.tool)) {
          const available = known.filter((id) => !NOT_SUGGESTED.has(id));
          throw new Error(
            `Tool '${call.tool}' not in registry. External tools (MCP, environment) cannot be batched - call them directly. Available tools: ${available.join(", ")}`,
          );
        }
        result = await session.runTool(call.tool, call.parameters, (callID) => {
          entry.callID = callID;
          report();
        });
      } catch (error) {
        entry.status = "error";
        entry.error = errorMessage(error);
        report();
        return;
      }
      entry.status = result.status;
      if (result.error !== undefined) entry.error = result.error;
      report();
    };
    report();
    await Promise.all(entries.map((_, index) => runOne(index)));
    const ok = entries.filter((entry) => entry.status === "completed").length;
    const failed = entries.length - ok;
    const details = entries
      .flatMap((entry, index) => (entry.status === "error" ? [`- ${index + 1}. ${entry.tool}: ${entry.error ?? "failed"}`] : []))
      .join("\n");
    const output =
      failed === 0
        ? `All ${entries.length} tools executed successfully.\n\nKeep using the batch tool for optimal performance in your next response!`
        : `Executed ${ok}/${entries.length} tools successfully. ${failed} failed.\n\nFailed calls:\n${details}`;
    return { title: `Batch execution (${ok}/${entries.length} successful)`, output, metadata: { calls: entries } };
  },
});
