/**
 * Issue 15, item 11: lost updates. Two sessions read a file, then change different lines at the same moment.
 * Exactly one may succeed; the other must get the "modified since it was last read" error, and the file must
 * hold the winner's change and nothing of the loser's. Never both "succeed" with one edit gone.
 *
 * On node the two sessions run on two runtimes over the same folder (as two CLI processes would: nothing in
 * memory is shared, only the lock file); on the embedded runtime they share the page's one file host.
 * A last case runs the second writer in a real separate process.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it } from "vitest";
import { fingerprint } from "../../src/runtime/fingerprint.js";
import { acquireFileLock, lockName } from "../../src/runtime/node/file-lock.js";
import { createNodeRuntime } from "../../src/runtime/node/index.js";
import type { Runtime } from "../../src/runtime/types.js";
import type { ToolCall } from "../../src/session/record/session-record.js";
import { ToolSession } from "../../src/session/host/tool-session.js";
import { builtinTools } from "../../src/tools/builtins.js";
import { fileBackends } from "../support/tool-session.js";
import { attackedSession, type Attacked } from "./write-session.js";

let current: Attacked | undefined;
afterEach(async () => {
  await current?.dispose();
  current = undefined;
});

const MODIFIED =
  /^File .*shared\.txt has been modified since it was last read\.\nLast modification: .*\nLast read: .*\n\nPlease read the file again before modifying it\.$/;
const lines = (round: number) => Array.from({ length: 6 }, (_, i) => `round ${round} line ${i + 1}`);

describe.each(fileBackends)("lost updates on %s", (backend) => {
  async function twoSessions(): Promise<{ a: ToolSession; b: ToolSession; runtime: Runtime; path: string }> {
    const s = (current = await attackedSession(backend));
    // The second session shares nothing with the first but the files: its own FileTime, locks and runtime.
    const runtime = backend === "node" ? createNodeRuntime({ root: s.root, searchThreads: 0 }) : s.runtime;
    const dataDir = backend === "node" ? s.root.replace(/\/workspace$/, "/data-b") : "/data-b";
    const b = await ToolSession.open({ runtime, dataDir, home: "/home/user", builtins: builtinTools, trusted: true });
    return { a: s.session, b, runtime: s.runtime, path: `${s.root}/shared.txt` };
  }

  function judge(calls: ToolCall[], winnerText: string[][], text: string) {
    const won = calls.flatMap((call, i) => (call.status === "completed" ? [i] : []));
    expect(won, `exactly one of the two writes succeeds (errors: ${calls.map((c) => c.error).join(" | ")})`).toHaveLength(1);
    const lost = calls[1 - won[0]!]!;
    expect(lost.status).toBe("error");
    expect(lost.error).toMatch(MODIFIED);
    expect(text).toBe(winnerText[won[0]!]!.join("\n") + "\n");
  }

  it("two edits of different lines: one wins, the other is told the file changed, every time", async () => {
    const { a, b, runtime, path } = await twoSessions();
    const deadline = Date.now() + 20_000;
    let rounds = 0;
    for (let round = 0; round < 40 && Date.now() < deadline; round++, rounds++) {
      const base = lines(round);
      await runtime.fs.writeFile(path, base.join("\n") + "\n");
      expect((await a.run("read", { filePath: path })).status).toBe("completed");
      expect((await b.run("read", { filePath: path })).status).toBe("completed");
      const calls = await Promise.all([
        a.run("edit", { filePath: path, oldString: base[1]!, newString: "EDITED BY A" }),
        b.run("edit", { filePath: path, oldString: base[4]!, newString: "EDITED BY B" }),
      ]);
      const byA = base.map((line, i) => (i === 1 ? "EDITED BY A" : line));
      const byB = base.map((line, i) => (i === 4 ? "EDITED BY B" : line));
      judge(calls, [byA, byB], new TextDecoder().decode(await runtime.fs.readFile(path)));
    }
    expect(rounds).toBeGreaterThanOrEqual(10);
  }, 60_000);

  it("a whole-file write against an edit, and multiedit against apply_patch: never one change lost", async () => {
    const { a, b, runtime, path } = await twoSessions();
    const deadline = Date.now() + 20_000;
    let rounds = 0;
    for (let round = 0; round < 20 && Date.now() < deadline; round++, rounds++) {
      const base = lines(round);
      await runtime.fs.writeFile(path, base.join("\n") + "\n");
      await a.run("read", { filePath: path });
      await b.run("read", { filePath: path });
      const written = base.map((line) => line.toUpperCase());
      const edited = base.map((line, i) => (i === 0 ? "FIRST" : line));
      const first = await Promise.all([
        a.run("write", { filePath: path, content: written.join("\n") + "\n" }),
        b.run("edit", { filePath: path, oldString: base[0]!, newString: "FIRST" }),
      ]);
      judge(first, [written, edited], new TextDecoder().decode(await runtime.fs.readFile(path)));

      const next = lines(round + 1000);
      await runtime.fs.writeFile(path, next.join("\n") + "\n");
      await a.run("read", { filePath: path });
      await b.run("read", { filePath: path });
      const multi = next.map((line, i) => (i === 2 ? "MULTI" : line));
      const patched = next.map((line, i) => (i === 3 ? "PATCHED" : line));
      const second = await Promise.all([
        a.run("multiedit", { filePath: path, edits: [{ oldString: next[2]!, newString: "MULTI" }] }),
        b.run("apply_patch", {
          patchText: ["*** Begin Patch", `*** Update File: ${path}`, "@@", `-${next[3]}`, "+PATCHED", "*** End Patch"].join("\n"),
        }),
      ]);
      const won = second.filter((call) => call.status === "completed");
      const after = new TextDecoder().decode(await runtime.fs.readFile(path));
      if (won.length === 2) {
        // apply_patch reads the file when it starts: when multiedit had already finished, it patched the
        // new text, so both changes are there. What must never happen is one of them missing.
        expect(after).toBe(next.map((line, i) => (i === 2 ? "MULTI" : i === 3 ? "PATCHED" : line)).join("\n") + "\n");
      } else {
        expect(won, second.map((c) => c.error).join(" | ")).toHaveLength(1);
        // apply_patch does not require a read first, so its loser's message is the one for a conflict at write.
        const loser = second.find((call) => call.status !== "completed")!;
        expect(loser.error).toMatch(/has been modified since it was last read/);
        expect(after).toBe((second[0]!.status === "completed" ? multi : patched).join("\n") + "\n");
      }
    }
    expect(rounds).toBeGreaterThanOrEqual(5);
  }, 60_000);
});

describe("lost updates across processes (node)", () => {
  it("a writer in another process waits for the lock this one holds, then sees the change and writes nothing", async () => {
    const dir = await mkdtemp(join(tmpdir(), "wb-lock-"));
    try {
      const file = join(dir, "shared.txt");
      await writeFile(file, "base\n");
      const expected = fingerprint(new TextEncoder().encode("base\n"));
      const release = await acquireFileLock(join(dir, lockName("shared.txt")));
      const child = spawn(
        process.execPath,
        ["--import", "tsx", "test/security/fixtures/checked-write.ts", dir, file, JSON.stringify(expected), "theirs\n"],
        {
          stdio: ["ignore", "pipe", "inherit"],
        },
      );
      const output: string[] = [];
      const reader = createInterface({ input: child.stdout! });
      const ready = new Promise<void>((resolve) => reader.on("line", (line) => (output.push(line), line === "ready" && resolve())));
      const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
      await ready;
      // Give a writer that ignored the lock every chance to write now; one that honours it cannot.
      await new Promise((r) => setTimeout(r, 400));
      await writeFile(file, "ours, made while holding the lock\n");
      await release();
      expect(await exited).toBe(0);
      expect(output.slice(1)).toEqual([expect.stringMatching(/^WriteConflict:changed:/)]);
      expect(await readFile(file, "utf8")).toBe("ours, made while holding the lock\n");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
