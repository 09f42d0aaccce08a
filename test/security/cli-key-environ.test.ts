/**
 * Issue 25 item 3: the keys of `workbench run` are out of reach of the commands it runs, on every way a
 * command can look for them in the environments around it: its own, its parent's (`/proc/$PPID/environ`,
 * also through `curl -K` naming it as a `file:` URL), its parent's command line, every ancestor's, every
 * process `ps e` shows (the CLI's MCP server child included). The real bin runs with sentinel keys (a
 * built-in variable and an `{env:}` one), a loopback OpenAI-compatible server plays the model and runs
 * the probes through the bash tool, and asserts the CLI still sent the key where it belongs.
 */
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProviderServer, type ProviderServer } from "../support/provider-server.js";
import { runWorkbench } from "../support/workbench-bin.js";

const STDIO_SERVER = join(import.meta.dirname, "../support/mcp-stdio-server.mjs");
// Built so that no command line or source text the probes see holds them whole.
const CONFIG_KEY = ["sk", "sentinel", "config", "7c1e5a9d"].join("-");
const BUILTIN_KEY = ["sk", "sentinel", "builtin", "3b8f0d2e"].join("-");
const VISIBLE = "marker-visible-5e2a";

// Each probe writes into probes.txt in the workspace (the test reads the file: a tool result is cut
// when long, and a cut could hide a key). Nothing here names a key, so a command line cannot hold one.
const PROBES = [
  "exec > probes.txt 2>&1",
  "echo '== own'; env",
  "echo '== parent environ'; tr '\\0' '\\n' < /proc/$PPID/environ",
  "echo '== parent cmdline'; tr '\\0' ' ' < /proc/$PPID/cmdline; echo",
  "printf 'url = \"file:///proc/%s/environ\"\\n' $PPID > curl.cfg",
  "echo '== curl -K'; curl -s -K curl.cfg | tr '\\0' '\\n'",
  "echo '== ancestors'",
  'p=$PPID; while [ "$p" -gt 1 ]; do echo "-- $p"; tr "\\0" "\\n" < /proc/$p/environ; p=$(cut -d" " -f4 < /proc/$p/stat); done',
  "echo '== ps e'; ps e -ww -A -o pid,ppid,args",
  "echo '== end'",
].join("\n");

let server: ProviderServer;
let dataDir: string;
let globalDir: string;

beforeAll(async () => {
  server = await startProviderServer();
  dataDir = await mkdtemp(join(tmpdir(), "wb-keys-data-"));
  globalDir = await mkdtemp(join(tmpdir(), "wb-keys-global-"));
});
afterAll(() => server.close());

async function workspace(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "wb-keys-"));
  const config = {
    provider: {
      local: {
        npm: "@ai-sdk/openai-compatible",
        name: "Loopback model",
        options: { baseURL: server.openaiBaseURL, apiKey: "{env:WB_TEST_CONFIG_KEY}" },
        models: { m: { name: "M", limit: { context: 100000, output: 4000 } } },
      },
    },
    model: "local/m",
    // A child of the CLI that lives while the commands run: its environment must hold no key either.
    mcp: { here: { type: "local", command: [process.execPath, STDIO_SERVER], environment: { MCP_TEST_GREETING: "hi" } } },
  };
  await writeFile(join(dir, "opencode.json"), JSON.stringify(config));
  return dir;
}

/** The lines that hold one of the needles, cut around it (so a failure names where, and stays short). */
function linesHolding(text: string, needles: string[]): string[] {
  const found: string[] = [];
  let section = "";
  for (const line of text.split("\n")) {
    if (line.startsWith("== ")) section = line;
    for (const needle of needles) {
      const at = line.indexOf(needle);
      if (at !== -1) found.push(`${section}: ${line.slice(0, 60)} ...${line.slice(Math.max(0, at - 40), at + needle.length + 20)}`);
    }
  }
  return found;
}

describe.runIf(process.platform === "linux")("the CLI's keys, seen from the commands it runs", () => {
  it("are in no environment, command line or ps listing a command can read, and still reach the provider", async () => {
    const dir = await workspace();
    server.enqueue(
      { step: { toolCalls: [{ name: "bash", input: { command: PROBES, description: "Look around" } }] } },
      { step: { text: "Looked." } },
    );
    const before = server.requests.length;
    const result = await runWorkbench(["run", "--trust", "--yes", "look around"], {
      cwd: dir,
      env: {
        WORKBENCH_DATA_DIR: dataDir,
        WORKBENCH_GLOBAL_CONFIG: globalDir,
        WB_TEST_CONFIG_KEY: CONFIG_KEY,
        OPENAI_API_KEY: BUILTIN_KEY,
        ANTHROPIC_API_KEY: BUILTIN_KEY,
        WORKBENCH_VISIBLE_MARKER: VISIBLE,
        // As on a first run: the TypeScript loader compiles in a helper process (esbuild) it starts then,
        // which must not inherit the keys either (a warm cache hid that).
        TSX_DISABLE_CACHE: "1",
      },
    });
    expect(result.stderr).not.toMatch(/error|note: commands may read/i);
    expect(result.code).toBe(0);

    // The provider got the key, on both requests.
    const requests = server.requests.slice(before);
    expect(requests).toHaveLength(2);
    for (const request of requests) expect(request.headers.authorization).toBe(`Bearer ${CONFIG_KEY}`);

    const seen = await readFile(join(dir, "probes.txt"), "utf8");
    // Every probe ran and read something real: the parent's environment is there, ordinary variables
    // and all (through /proc and through curl), and ps listed the MCP server.
    expect(seen).toContain("== end");
    const section = (name: string) => seen.slice(seen.indexOf(`== ${name}\n`), seen.indexOf("\n== ", seen.indexOf(`== ${name}\n`) + 1));
    expect(section("parent environ")).toContain(`WORKBENCH_VISIBLE_MARKER=${VISIBLE}`);
    expect(section("curl -K")).toContain(`WORKBENCH_VISIBLE_MARKER=${VISIBLE}`);
    expect(section("parent cmdline")).toContain("workbench.mjs");
    expect(section("ancestors")).toContain(`WORKBENCH_VISIBLE_MARKER=${VISIBLE}`);
    expect(section("ps e")).toContain("mcp-stdio-server.mjs");
    expect(section("ps e")).toContain(`WORKBENCH_VISIBLE_MARKER=${VISIBLE}`);
    // ...and no key anywhere, under any name.
    expect(linesHolding(seen, [CONFIG_KEY, BUILTIN_KEY, "WB_TEST_CONFIG_KEY=", "OPENAI_API_KEY=", "ANTHROPIC_API_KEY="])).toEqual([]);
    // Nor in what went back to the model.
    expect(JSON.stringify(requests[1]!.body)).not.toContain(CONFIG_KEY);
  }, 60_000);
});
