/** What the frame accepts from a host, checked before anything is written or run. */
import { z } from "zod";

const FileContent = z.union([z.string(), z.instanceof(Uint8Array)]);
const FileMap = z.record(z.string().min(1), FileContent);

const View = z.enum(["chat", "tools", "editor", "terminal", "preview"]);
const Theme = z.enum(["light", "dark"]);

export const StartParams = z.strictObject({
  files: FileMap.optional(),
  session: z.unknown().optional(),
  config: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
  open: z.array(z.string()).optional(),
  autoplay: z.boolean().optional(),
});

export const FsDiffParams = z.strictObject({
  create: FileMap.optional(),
  destroy: z.array(z.string().min(1)).optional(),
});

export const RunToolParams = z.strictObject({ tool: z.string().min(1), args: z.record(z.string(), z.unknown()).default({}) });
export const RunParams = z.strictObject({ message: z.string().min(1) });
export const RevertParams = z.strictObject({ callID: z.string().min(1) });
export const OpenFileParams = z.strictObject({ path: z.string().min(1) });
export const ThemeParams = z.strictObject({ theme: Theme });
export const ViewParams = z.strictObject({ view: View });

/** Parses `value`, or throws an error naming the method, the field and what was wrong. */
export function parseParams<T>(schema: z.ZodType<T>, value: unknown, method: string): T {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const where = issue.path.length > 0 ? issue.path.map(String).join(".") : "(its parameters)";
  throw new Error(`${method}: ${where}: ${issue.message}`);
}
