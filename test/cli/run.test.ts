/**
 * `workbench run` end to end: the real bin in a child process, a user's opencode.json naming a provider
 * whose base URL is a local server speaking the provider's protocol, the key in the child's environment.
 */
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runWorkbench } from "../support/workbench-bin.js";
import { importSession } from "../../src/session/record/session-json.js";
import { errorBodies, startProviderServer, type ProviderServer } from "../support/provider-server.js";

const KEY = "sk-test-run-0123456789";
let server: ProviderServer;
let dataDir: string;
let globalDir: string;

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The bin, asynchronously: the provider server answers from this process meanwhile. */
function workbench(
  args: string[],
  options: { env?: Record<string, string>; input?: string; cwd?: string; onStart?: (pid: number) => void } = {},
): Promise<Result> {
  // These folders are the person's own: their config's {env:} key and base URL only count with --trust
  // (test/security/config-trust.test.ts covers an untrusted one).
  const full = args[0] === "run" ? ["run", "--trust", ...args.slice(1)] : args;
  return runWorkbench(full, {
    ...options,
    env: { WORKBENCH_DATA_DIR: dataDir, WORKBENCH_GLOBAL_CONFIG: globalDir, TEST_PROVIDER_KEY: KEY, ...options.env },
  });
}

function openaiCompatible(extra: object = {}) {
  return {
    provider: {
      local: {
        npm: "@ai-sdk/openai-compatible",
        name: "Local test server",
        options: { baseURL: server.openaiBaseURL, apiKey: "{env:TEST_PROVIDER_KEY}" },
        models: { "coder-1": { name: "Coder 1", limit: { context: 100000, output: 4000 } } },
      },
    },
    model: "local/coder-1",
    ...extra,
  };
}

async function folder(config: object, files: Record<string, string> = { "a.txt": "Hello wrold, this is teh file.\n" }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "wb-run-"));
  await writeFile(join(dir, "opencode.json"), JSON.stringify(config, null, 2));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

/** The read, edit, answer conversation of "fix the typo in a.txt". */
function scriptFix(dir: string) {
  const path = join(dir, "a.txt");
  server.enqueue(
    { step: { text: "Let me look.", toolCalls: [{ name: "read", input: { filePath: path } }] } },
    { step: { toolCalls: [{ name: "edit", input: { filePath: path, oldString: "teh file", newString: "the file" } }] } },
    { step: { text: "Fixed the typo: teh -> the." } },
  );
}

/** Every tool result the model was sent in one chat-completions request. */
function toolResults(index: number): string[] {
  const body = server.requests[index]!.body as { messages: Array<{ role: string; content: unknown }> };
  return body.messages.filter((m) => m.role === "tool").map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
}

beforeAll(async () => {
  server = await startProviderServer();
  dataDir = await mkdtemp(join(tmpdir(), "wb-run-data-"));
  globalDir = await mkdtemp(join(tmpdir(), "wb-run-global-"));
});
afterAll(() => server.close());

describe("workbench run", () => {
  it("fixes a typo through an openai-compatible provider: file changed, answer on stdout, tool lines on stderr", async () => {
    const dir = await folder(openaiCompatible());
    scriptFix(dir);
    const before = server.requests.length;
    const result = await workbench(["run", "fix the typo in a.txt"], { cwd: dir });
    expect(result.stderr).not.toMatch(/error/i);
    expect(result.code).toBe(0);
    expect(await readFile(join(dir, "a.txt"), "utf8")).toBe("Hello wrold, this is the file.\n");
    expect(result.stdout).toBe("Let me look.\nFixed the typo: teh -> the.\n");
    expect(result.stderr.split("\n").filter((line) => line.startsWith("|"))).toEqual(["| read  a.txt", "| edit  a.txt"]);
    const requests = server.requests.slice(before);
    expect(requests).toHaveLength(3);
    for (const request of requests) {
      expect(request.path).toBe("/v1/chat/completions");
      expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    }
    const first = requests[0]!.body as { model: string; messages: Array<{ role: string; content: unknown }> };
    expect(first.model).toBe("coder-1");
    expect(JSON.stringify(first.messages.filter((m) => m.role === "user"))).toContain("fix the typo in a.txt");
    // The edit saw the read's output, and the answer saw the edit's.
    expect(toolResults(before + 1).join("\n")).toContain("teh file");
  }, 60_000);

  it("prints one JSON event per line with --format json, in order, and takes the message from stdin", async () => {
    const dir = await folder(openaiCompatible());
    scriptFix(dir);
    const sessionFile = join(dir, "..", `${dir.split("/").pop()}-session.json`);
    const result = await workbench(["run", "--dir", dir, "--format", "json", "--session-file", sessionFile, "fix the typo"], {
      input: "in a.txt please",
    });
    expect(result.code).toBe(0);
    const events = result.stdout
      .trim()
      .split("\n")
      .map(
        (line) =>
          JSON.parse(line) as {
            type: string;
            sessionID: string;
            timestamp: number;
            part?: { type: string; text?: string; tool?: string; state?: { status: string } };
          },
      );
    expect(events.map((event) => event.type)).toEqual([
      "step_start",
      "text",
      "tool_use",
      "step_finish",
      "step_start",
      "tool_use",
      "step_finish",
      "step_start",
      "text",
      "step_finish",
    ]);
    expect(new Set(events.map((event) => event.sessionID)).size).toBe(1);
    expect(events.every((event) => typeof event.timestamp === "number")).toBe(true);
    const tools = events.filter((event) => event.type === "tool_use").map((event) => [event.part!.tool, event.part!.state!.status]);
    expect(tools).toEqual([
      ["read", "completed"],
      ["edit", "completed"],
    ]);
    expect(events.at(-2)!.part!.text).toBe("Fixed the typo: teh -> the.");
    // The arguments and the piped text make one message.
    const user = (server.requests.at(-3)!.body as { messages: Array<{ role: string; content: unknown }> }).messages.find(
      (m) => m.role === "user",
    );
    expect(JSON.stringify(user!.content)).toContain("fix the typo\\nin a.txt please");
    const saved = JSON.parse(await readFile(sessionFile, "utf8")) as {
      format: string;
      session: { id: string; messages: unknown[]; calls: unknown[] };
    };
    expect(saved.session.id).toBe(events[0]!.sessionID);
    expect(saved.session.calls).toHaveLength(2);
    expect(JSON.stringify(saved)).not.toContain(KEY);
    // The page's import takes it back.
    expect(importSession(await readFile(sessionFile, "utf8")).messages.map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "assistant",
      "assistant",
    ]);
  }, 60_000);

  it("rejects a permission ask without --yes and tells the model why", async () => {
    const dir = await folder(openaiCompatible({ permission: { edit: "ask" } }));
    scriptFix(dir);
    const before = server.requests.length;
    const result = await workbench(["run", "fix the typo in a.txt"], { cwd: dir });
    expect(result.code).toBe(0);
    expect(await readFile(join(dir, "a.txt"), "utf8")).toBe("Hello wrold, this is teh file.\n");
    expect(result.stderr).toMatch(/^\| edit  a\.txt  error: .*--yes/m);
    const results = toolResults(before + 2);
    expect(results.at(-1)).toMatch(/rejected permission .*unless --yes is given/);
  }, 60_000);

  it("answers an ask with --yes", async () => {
    const dir = await folder(openaiCompatible({ permission: { edit: "ask" } }));
    scriptFix(dir);
    const result = await workbench(["run", "--yes", "fix the typo in a.txt"], { cwd: dir });
    expect(result.code).toBe(0);
    expect(await readFile(join(dir, "a.txt"), "utf8")).toBe("Hello wrold, this is the file.\n");
  }, 60_000);

  it("stops a model that repeats the same call, even with --yes, and says why", async () => {
    const dir = await folder(openaiCompatible());
    const path = join(dir, "a.txt");
    const again = { step: { toolCalls: [{ name: "read", input: { filePath: path } }] } };
    server.enqueue(again, again, again, again, { step: { text: "Done reading." } });
    const before = server.requests.length;
    const result = await workbench(["run", "--yes", "read a.txt"], { cwd: dir });
    const unused = server.drain();
    expect(result.code).toBe(0);
    expect(server.requests.length - before).toBe(3);
    expect(unused).toBe(2);
    expect(result.stderr).toMatch(/^stopped: the model repeated the same call 3 times \(read with the same arguments\)/m);
    expect(result.stdout).not.toContain("Done reading.");
  }, 60_000);

  it("keeps the run's keys out of the tool shell: `env` shows neither the {env:} key nor a built-in key variable", async () => {
    const dir = await folder(openaiCompatible());
    const sessionFile = join(dir, "..", `${dir.split("/").pop()}-env-session.json`);
    server.enqueue(
      { step: { toolCalls: [{ name: "bash", input: { command: "env", description: "Show the environment" } }] } },
      { step: { text: "Seen the environment." } },
    );
    const before = server.requests.length;
    const result = await workbench(["run", "--yes", "--session-file", sessionFile, "show the environment"], {
      cwd: dir,
      env: { OPENAI_API_KEY: "sk-openai-not-for-the-shell-42", WORKBENCH_VISIBLE_MARKER: "marker-visible-123" },
    });
    expect(result.code).toBe(0);
    const shown = toolResults(before + 1).join("\n");
    // The shell did run `env` (an ordinary variable is there)...
    expect(shown).toContain("WORKBENCH_VISIBLE_MARKER=marker-visible-123");
    // ...but no key, under any name.
    expect(shown).not.toContain(KEY);
    expect(shown).not.toContain("TEST_PROVIDER_KEY");
    expect(shown).not.toContain("sk-openai-not-for-the-shell-42");
    const saved = await readFile(sessionFile, "utf8");
    expect(saved).not.toContain(KEY);
    expect(saved).not.toContain("sk-openai-not-for-the-shell-42");
  }, 60_000);

  it("refuses an untrusted folder's {env:} key before any request, naming the option and --trust", async () => {
    const dir = await folder(openaiCompatible());
    const before = server.requests.length;
    // Not through workbench(): that helper trusts the folder.
    const result = await runWorkbench(["run", "hello"], {
      cwd: dir,
      env: { WORKBENCH_DATA_DIR: dataDir, WORKBENCH_GLOBAL_CONFIG: globalDir, TEST_PROVIDER_KEY: KEY },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('provider "local" takes options.apiKey ({env:TEST_PROVIDER_KEY}) from the environment');
    expect(result.stderr).toContain("Run again with --trust");
    expect(result.stderr).not.toContain("401");
    expect(server.requests.length).toBe(before);
    // Trusted, the same folder's key is read and the request goes out.
    server.enqueue({ step: { text: "hi there" } });
    const trusted = await workbench(["run", "hello"], { cwd: dir });
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toContain("hi there");
  }, 60_000);

  it("exits 1 with the bad-key message on a 401", async () => {
    const dir = await folder(openaiCompatible());
    server.enqueue({
      error: { status: 401, body: errorBodies.openai("Incorrect API key provided: sk-te***", "invalid_request_error", "invalid_api_key") },
    });
    const result = await workbench(["run", "hello"], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^error: .*refused the API key \(401\): Incorrect API key provided/m);
    // With what to do about it.
    expect(result.stderr).toMatch(/check the environment variable/);
  }, 60_000);

  it("exits 2 on an unknown model, an unknown agent, a bad --format or no message, before any request", async () => {
    const dir = await folder(openaiCompatible());
    const before = server.requests.length;
    const model = await workbench(["run", "--model", "local/nope", "hello"], { cwd: dir });
    expect(model.code).toBe(2);
    expect(model.stderr).toContain('provider "local" has no model "nope"');
    expect(model.stderr).toContain("coder-1");
    const agent = await workbench(["run", "--agent", "wizard", "hello"], { cwd: dir });
    expect(agent.code).toBe(2);
    expect(agent.stderr).toMatch(/unknown agent "wizard": use one of .*build/);
    const format = await workbench(["run", "--format", "xml", "hello"], { cwd: dir });
    expect(format.code).toBe(2);
    expect(format.stderr).toContain("--format must be default or json");
    const empty = await workbench(["run"], { cwd: dir });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("no message");
    expect(server.requests.length).toBe(before);
  }, 60_000);

  it("speaks the Anthropic protocol through @ai-sdk/anthropic", async () => {
    const dir = await folder({
      provider: {
        claude: {
          npm: "@ai-sdk/anthropic",
          options: { baseURL: server.anthropicBaseURL, apiKey: "{env:TEST_PROVIDER_KEY}" },
          models: { "claude-test": { name: "Claude test" } },
        },
      },
    });
    scriptFix(dir);
    const before = server.requests.length;
    const result = await workbench(["run", "--model", "claude/claude-test", "fix the typo in a.txt"], { cwd: dir });
    expect(result.stderr).not.toMatch(/error/i);
    expect(result.code).toBe(0);
    expect(await readFile(join(dir, "a.txt"), "utf8")).toBe("Hello wrold, this is the file.\n");
    expect(result.stdout).toBe("Let me look.\nFixed the typo: teh -> the.\n");
    const requests = server.requests.slice(before);
    expect(requests.map((request) => request.path)).toEqual(["/v1/messages", "/v1/messages", "/v1/messages"]);
    expect(requests[0]!.headers["x-api-key"]).toBe(KEY);
  }, 60_000);

  it("stops on Ctrl-C: the stream is aborted and the exit code is 130", async () => {
    const dir = await folder(openaiCompatible());
    server.enqueue({ hang: true });
    const before = server.requests.length;
    const abortedBefore = server.aborted;
    let pid = 0;
    const running = workbench(["run", "hello"], { cwd: dir, onStart: (id) => (pid = id) });
    await server.waitForRequests(before + 1);
    process.kill(pid, "SIGINT");
    const result = await running;
    expect(result.code).toBe(130);
    expect(server.aborted).toBe(abortedBefore + 1);
  }, 60_000);
});
