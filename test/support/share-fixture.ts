/**
 * A shareable workspace for tests and benches: `files` source-like text files plus one binary, and a session
 * of `calls` tool calls over them (reads, greps, edits, bash), in the session-json export form.
 */
import type { SessionFile } from "../../src/session/record/session-json.js";

const WORDS = ["parse", "token", "value", "result", "error", "config", "render", "state", "index", "cache", "buffer", "stream"];

function sourceFile(n: number): string {
  const lines = [
    `// module ${n}: ${WORDS[n % WORDS.length]} helpers`,
    `import { ${WORDS[(n + 1) % WORDS.length]} } from "./m${(n + 1) % 20}.js";`,
    "",
  ];
  for (let f = 0; f < 12; f++) {
    const name = `${WORDS[(n + f) % WORDS.length]}${f}`;
    lines.push(
      `export function ${name}(input: string): string {`,
      `  const ${WORDS[f % WORDS.length]} = input.trim();`,
      `  return \`${name}:\${${WORDS[f % WORDS.length]}}\`;`,
      "}",
      "",
    );
  }
  return lines.join("\n");
}

export function fixtureFiles(count: number): Record<string, string | Uint8Array> {
  const files: Record<string, string | Uint8Array> = {};
  for (let n = 0; n < count - 1; n++)
    files[n === 0 ? "README.md" : `src/m${n}.ts`] = n === 0 ? "# Demo\n\nA small project shared as a link.\n" : sourceFile(n);
  // A small image-like binary (every byte value, so nothing survives a text round trip by accident).
  files["assets/logo.bin"] = Uint8Array.from({ length: 512 }, (_, i) => (i * 37) % 256);
  return files;
}

export function fixtureSession(calls: number, files: Record<string, string | Uint8Array>): SessionFile {
  const sessionID = "ses_fixture";
  const paths = Object.keys(files).filter((path) => typeof files[path] === "string");
  const user = {
    id: "msg_user",
    sessionID,
    role: "user" as const,
    time: { created: 1_700_000_000_000 },
    agent: "build",
    model: { providerID: "anthropic", modelID: "claude-sonnet-4" },
    parts: [{ id: "prt_u", messageID: "msg_user", type: "text" as const, text: "Look through the project and tidy the helpers." }],
  };
  const messages: SessionFile["session"]["messages"] = [user];
  const records: SessionFile["session"]["calls"] = [];
  for (let c = 0; c < calls; c++) {
    const id = `msg_a${c}`;
    const path = paths[c % paths.length]!;
    const kind = ["read", "grep", "edit", "bash"][c % 4]!;
    const text = String(files[path]);
    const input =
      kind === "read"
        ? { filePath: path }
        : kind === "grep"
          ? { pattern: WORDS[c % WORDS.length]! }
          : kind === "edit"
            ? { filePath: path, oldString: "input.trim()", newString: "input.trim().toLowerCase()" }
            : { command: `wc -l ${path}`, description: "Counts lines" };
    const output =
      kind === "read"
        ? text
            .split("\n")
            .map((line, i) => `${String(i + 1).padStart(5, "0")}| ${line}`)
            .join("\n")
        : kind === "grep"
          ? paths
              .slice(0, 8)
              .map((p, i) => `${p}:\n  Line ${i + 4}: export function ${WORDS[c % WORDS.length]}${i}(input: string): string {`)
              .join("\n")
          : kind === "edit"
            ? "Edit applied successfully."
            : `${text.split("\n").length} ${path}\n`;
    records.push({
      id: `call_${c}`,
      sessionID,
      messageID: id,
      tool: kind,
      input,
      status: "completed",
      title: path,
      metadata: {},
      output,
      permissions: [],
      time: { created: 1_700_000_000_000 + c * 1000, start: 1_700_000_000_000 + c * 1000, end: 1_700_000_000_000 + c * 1000 + 40 },
    });
    messages.push({
      id,
      sessionID,
      role: "assistant",
      parentID: "msg_user",
      time: { created: 1_700_000_000_000 + c * 1000, completed: 1_700_000_000_000 + c * 1000 + 900 },
      agent: "build",
      providerID: "anthropic",
      modelID: "claude-sonnet-4",
      parts: [
        { id: `prt_s${c}`, messageID: id, type: "step-start" },
        { id: `prt_t${c}`, messageID: id, type: "text", text: `Step ${c}: looking at ${path} with ${kind}.` },
        { id: `prt_c${c}`, messageID: id, type: "tool", providerCallID: `toolu_${c}`, callID: `call_${c}`, tool: kind },
        {
          id: `prt_f${c}`,
          messageID: id,
          type: "step-finish",
          reason: "tool-calls",
          tokens: { input: 2000 + c * 50, output: 80, reasoning: 0, cache: { read: 0, write: 0 } },
          cost: 0.001,
        },
      ],
      finish: "tool-calls",
      tokens: { input: 2000 + c * 50, output: 80, reasoning: 0, cache: { read: 0, write: 0 } },
      cost: 0.001,
    });
  }
  return {
    format: "workbench-session",
    version: 1,
    session: { id: sessionID, title: "Tidy the helpers", agent: "build", createdAt: 1_700_000_000_000, messages, calls: records },
  };
}
