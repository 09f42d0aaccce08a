/**
 * `workbench run` with the session tools: the real bin in a child process against a local server speaking
 * the OpenAI protocol. The model writes a todo list and starts a general subagent, which reads a file in a
 * child session and answers; its answer comes back to the parent as the task's output.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runWorkbench } from "../support/workbench-bin.js";
import { importSession } from "../../src/session/record/session-json.js";
import { startProviderServer, type ProviderServer } from "../support/provider-server.js";

const KEY = "sk-test-session-tools-0123";
let server: ProviderServer;
let dataDir: string;
let globalDir: string;

function workbench(args: string[], cwd: string) {
  return runWorkbench(args, { cwd, env: { WORKBENCH_DATA_DIR: dataDir, WORKBENCH_GLOBAL_CONFIG: globalDir, TEST_PROVIDER_KEY: KEY } });
}

beforeAll(async () => {
  server = await startProviderServer();
  dataDir = await mkdtemp(join(tmpdir(), "wb-st-data-"));
  globalDir = await mkdtemp(join(tmpdir(), "wb-st-global-"));
});
afterAll(() => server.close());

describe("workbench run with todowrite and task", () => {
  it("writes todos, runs a subagent that reads a file, and answers with what it found", async () => {
    const dir = await mkdtemp(join(tmpdir(), "wb-st-"));
    await writeFile(
      join(dir, "opencode.json"),
      JSON.stringify({
        provider: {
          local: {
            npm: "@ai-sdk/openai-compatible",
            name: "Local test server",
            options: { baseURL: server.openaiBaseURL, apiKey: "{env:TEST_PROVIDER_KEY}" },
            models: { "coder-1": { name: "Coder 1", limit: { context: 100000, output: 4000 } } },
          },
        },
        model: "local/coder-1",
      }),
    );
    await writeFile(join(dir, "notes.txt"), "the colour is teal\n");
    server.enqueue(
      {
        step: {
          toolCalls: [{ name: "todowrite", input: { todos: [{ content: "Find the colour", status: "in_progress", priority: "high" }] } }],
        },
      },
      {
        step: {
          toolCalls: [
            {
              name: "task",
              input: { description: "Find the colour", prompt: "Read notes.txt and say the colour.", subagent_type: "general" },
            },
          ],
        },
      },
      { step: { toolCalls: [{ name: "read", input: { filePath: join(dir, "notes.txt") } }] } },
      { step: { text: "The colour is teal." } },
      { step: { text: "Teal, says the subagent." } },
    );
    const before = server.requests.length;
    const sessionFile = join(dir, "..", `${dir.split("/").pop()}-session.json`);
    const result = await workbench(["run", "--trust", "--session-file", sessionFile, "what colour?"], dir);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Teal, says the subagent.\n");
    const lines = result.stderr.split("\n").filter((line) => line.startsWith("|"));
    expect(lines).toEqual(["| todowrite  1 todos", "| task  Find the colour"]);
    const requests = server.requests.slice(before);
    expect(requests).toHaveLength(5);
    const tools = (index: number) =>
      ((requests[index]!.body as { tools?: Array<{ function: { name: string } }> }).tools ?? []).map((tool) => tool.function.name);
    // Standard input is not a terminal here: nobody could answer a question, so it is not offered.
    expect(tools(0)).toContain("task");
    expect(tools(0)).toContain("todowrite");
    expect(tools(0)).not.toContain("question");
    // The child (general) is offered neither the todo list nor task.
    expect(tools(2)).toContain("read");
    expect(tools(2)).not.toContain("todowrite");
    expect(tools(2)).not.toContain("task");
    const childPrompt = JSON.stringify((requests[2]!.body as { messages: unknown[] }).messages);
    expect(childPrompt).toContain("Read notes.txt and say the colour.");
    expect(childPrompt).not.toContain("what colour?");
    const last = JSON.stringify((requests[4]!.body as { messages: unknown[] }).messages);
    expect(last).toContain("<task_result>\\nThe colour is teal.\\n</task_result>");
    const { readFile } = await import("node:fs/promises");
    const saved = importSession(await readFile(sessionFile, "utf8"));
    expect(saved.todos).toEqual([{ content: "Find the colour", status: "in_progress", priority: "high", id: "1" }]);
  }, 60_000);
});
