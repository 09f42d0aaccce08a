/**
 * One model step's stream, turned into parts of its assistant message as it arrives: the AI SDK's
 * stream parts go to the step writer, tool calls to the step's tools. An `error` part is thrown, for
 * the loop to classify.
 */
import type { TextStreamPart, ToolSet } from "ai";
import type { StepTools } from "./step-tools.js";
import type { StepWriter } from "./step-writer.js";

export async function processStream(stream: AsyncIterable<TextStreamPart<ToolSet>>, writer: StepWriter, tools?: StepTools): Promise<void> {
  try {
    for await (const part of stream) {
      switch (part.type) {
        case "start-step":
          writer.startStep();
          break;
        case "text-start":
          writer.start("text", part.id);
          break;
        case "text-delta":
          if (part.text) writer.delta("text", part.id, part.text);
          break;
        case "text-end":
          writer.end("text", part.id);
          break;
        case "reasoning-start":
          writer.start("reasoning", part.id);
          break;
        case "reasoning-delta":
          if (part.text) writer.delta("reasoning", part.id, part.text);
          break;
        case "reasoning-end":
          writer.end("reasoning", part.id);
          break;
        case "tool-call":
          if (!tools) break;
          // A call the repair hook could not save goes to `invalid`, which explains it to the model.
          if (part.invalid) tools.startInvalid(part.toolCallId, part.toolName, part.error);
          else tools.start(part);
          break;
        case "finish-step":
          writer.finishStep(part.finishReason, part.usage);
          break;
        case "error":
          throw part.error;
        case "abort":
          throw new DOMException("The run was stopped.", "AbortError");
        default:
          break;
      }
    }
  } finally {
    writer.closeOpen();
  }
}
