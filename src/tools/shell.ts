/**
 * OpenCode V2's `shell`: the bash tool under V2's name and parameters (`command`, `workdir`, `timeout` where 0
 * means no limit, `background`). It asks the same `bash` permission (V2 rules for `shell` map onto it) and
 * runs through the same code, so output streaming, truncation and the command scanner are one thing.
 */
import { z } from "zod";
import { BashTool, DEFAULT_TIMEOUT_MS } from "./bash.js";
import description from "./shell.txt?raw";
import { define } from "./tool.js";
import { MAX_BYTES, MAX_LINES } from "./truncation/constants.js";

/** "No limit" as the bash tool understands it: longer than any session lasts (about 24 days, setTimeout's cap). */
const NO_LIMIT_MS = 2 ** 31 - 1;

export const shellParameters = z.object({
  command: z.string().describe("The shell command to run"),
  workdir: z
    .string()
    .describe("The folder to run it in (default: the workspace folder); set this rather than starting the command with cd")
    .optional(),
  timeout: z
    .number()
    .int()
    .min(0)
    .describe(`Time limit in milliseconds; 0 means none. Default ${DEFAULT_TIMEOUT_MS} in the foreground, none in the background`)
    .optional(),
  background: z
    .boolean()
    .describe(
      "Start the command and return at once with a shell ID (for dev servers and long builds; no trailing & needed). You are told when it ends: do not poll",
    )
    .optional(),
});

export const ShellTool = define("shell", async (init) => {
  const bash = await BashTool.init(init);
  return {
    description: description
      .trim()
      .replaceAll("{timeout}", String(DEFAULT_TIMEOUT_MS))
      .replaceAll("{maxLines}", String(MAX_LINES))
      .replaceAll("{maxBytes}", String(MAX_BYTES)),
    parameters: shellParameters,
    execute(args: z.infer<typeof shellParameters>, ctx) {
      const limit = args.timeout === 0 ? NO_LIMIT_MS : args.timeout;
      return bash.execute(
        {
          command: args.command,
          description: args.command,
          ...(args.workdir === undefined ? {} : { workdir: args.workdir }),
          ...(limit === undefined ? {} : { timeout: limit }),
          ...(args.background === undefined ? {} : { background: args.background }),
        },
        ctx,
      );
    },
  };
});
