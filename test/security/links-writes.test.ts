/**
 * Issue 15, items 1 and 2: writes through symbolic links. Each case is the attack: a link planted in the
 * workspace (dangling, chained, on a folder, or swapped in and out while the tool runs) and a file tool
 * writing through it. Every external_directory question is rejected; afterwards the outside sentinel must
 * be untouched and nothing new may sit beside it.
 */
import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import type { ToolCall } from "../../src/session/record/session-record.js";
import { fileBackends } from "../support/tool-session.js";
import { attackedSession, type Attacked } from "./write-session.js";

let current: Attacked | undefined;
afterEach(async () => {
  await current?.dispose();
  current = undefined;
});

const patch = (...body: string[]) => ["*** Begin Patch", ...body, "*** End Patch"].join("\n");

/** Every way a file tool creates or replaces a file, aimed at `name`. */
const writers: Array<{ tool: string; args: (name: string) => Record<string, unknown> }> = [
  { tool: "write", args: (name) => ({ filePath: name, content: "pwned\n" }) },
  { tool: "edit", args: (name) => ({ filePath: name, oldString: "", newString: "pwned\n" }) },
  { tool: "multiedit", args: (name) => ({ filePath: name, edits: [{ oldString: "", newString: "pwned\n" }] }) },
  { tool: "apply_patch (Add File)", args: (name) => ({ patchText: patch(`*** Add File: ${name}`, "+pwned") }) },
  {
    tool: "apply_patch (Move to)",
    args: (name) => ({ patchText: patch("*** Update File: src.txt", `*** Move to: ${name}`, "@@", "-source", "+pwned") }),
  },
];
const toolOf = (tool: string) => tool.split(" ")[0]!;

describe.each(fileBackends)("writes through links on %s", (backend) => {
  async function open(files: Record<string, string> = {}) {
    current = await attackedSession(backend, { "src.txt": "source\n", ...files });
    return current;
  }

  describe.each(writers)("$tool", ({ tool, args }) => {
    it("asks before creating the target of a dangling link that leads outside, and creates nothing when refused", async () => {
      const s = await open();
      await s.runtime.fs.symlink(`${s.sentinel.dir}/new`, `${s.root}/dangle`);
      const call = await s.session.run(toolOf(tool), args("dangle"));
      expect(call.status).toBe("error");
      expect(s.asked.map((r) => r.permission)).toEqual(["external_directory"]);
      expect(s.asked[0]!.patterns).toEqual([`${s.sentinel.dir}/*`]);
      await s.sentinel.assertUntouched();
      expect((await s.runtime.fs.lstat(`${s.root}/dangle`)).type).toBe("symlink");
    });

    it("judges a chain of dangling links by where the last one leads", async () => {
      const s = await open();
      // dangle -> hop (a link in the workspace) -> <outside>/new, through a relative target.
      await s.runtime.fs.symlink("hop", `${s.root}/dangle`);
      await s.runtime.fs.symlink(`${s.sentinel.dir}/new`, `${s.root}/hop`);
      const call = await s.session.run(toolOf(tool), args("dangle"));
      expect(call.status).toBe("error");
      expect(s.asked).toHaveLength(1);
      await s.sentinel.assertUntouched();
    });

    it("asks for a new file under a link to an outside folder", async () => {
      const s = await open();
      await s.runtime.fs.symlink(s.sentinel.dir, `${s.root}/out`);
      const call = await s.session.run(toolOf(tool), args("out/new.txt"));
      expect(call.status).toBe("error");
      expect(s.asked).toHaveLength(1);
      await s.sentinel.assertUntouched();
    });

    it("creates the target of a dangling link that stays inside, without asking, and keeps the link", async () => {
      const s = await open();
      await s.runtime.fs.mkdir(`${s.root}/docs`);
      await s.runtime.fs.symlink("docs/target.txt", `${s.root}/inside-link`);
      const call = await s.session.run(toolOf(tool), args("inside-link"));
      expect(call.error).toBeUndefined();
      expect(call.status).toBe("completed");
      expect(s.asked).toHaveLength(0);
      expect((await s.text("docs/target.txt")).trimEnd()).toBe("pwned");
      expect((await s.runtime.fs.lstat(`${s.root}/inside-link`)).type).toBe("symlink");
      await s.sentinel.assertUntouched();
    });
  });

  it("asks before writing through a link to the outside file itself (write), and leaves it alone when refused", async () => {
    const s = await open();
    await s.runtime.fs.symlink(s.sentinel.file, `${s.root}/to-sentinel`);
    await s.session.run("read", { filePath: "src.txt" });
    const call = await s.session.run("write", { filePath: "to-sentinel", content: "pwned\n" });
    expect(call.status).toBe("error");
    expect(s.asked).toHaveLength(1);
    await s.sentinel.assertUntouched();
  });

  it("refuses a link loop at the name with a message, writing nothing", async () => {
    const s = await open();
    await s.runtime.fs.symlink("loop-b", `${s.root}/loop-a`);
    await s.runtime.fs.symlink("loop-a", `${s.root}/loop-b`);
    for (const [tool, args] of [
      ["write", { filePath: "loop-a", content: "x\n" }],
      ["edit", { filePath: "loop-a", oldString: "", newString: "x\n" }],
    ] as const) {
      const call = await s.session.run(tool, args);
      expect(call.status).toBe("error");
      expect(call.error).toMatch(/symbolic link that loops, or one made while this call checked the path; nothing was read or written/);
    }
    expect(await s.runtime.fs.readlink(`${s.root}/loop-a`)).toBe("loop-b");
    await s.sentinel.assertUntouched();
  });

  it("makes the dangling link with the shell, as the model would, and still asks", async () => {
    const s = await open();
    const made = await s.runtime.exec(`ln -s ${s.sentinel.dir}/made-by-bash dangle`);
    expect(made.exitCode).toBe(0);
    const call = await s.session.run("write", { filePath: "dangle", content: "pwned\n" });
    expect(call.status).toBe("error");
    expect(s.asked).toHaveLength(1);
    await s.sentinel.assertUntouched();
  });

  it("never writes outside while a folder on the way flips between a real folder and a link out", async () => {
    const s = await open();
    const sub = `${s.root}/sub`;
    let flipping = true;
    const flipper = (async () => {
      while (flipping) {
        await s.runtime.fs.rm(sub, { recursive: true, force: true }).catch(() => undefined);
        await s.runtime.fs.mkdir(sub).catch(() => undefined);
        await s.runtime.fs.rm(sub, { recursive: true, force: true }).catch(() => undefined);
        await s.runtime.fs.symlink(s.sentinel.dir, sub).catch(() => undefined);
      }
    })();
    // A new file right in the flipping folder, and one in folders still to be made under it.
    const tries = [
      () => s.session.run("write", { filePath: "sub/new.txt", content: "pwned\n" }),
      () => s.session.run("edit", { filePath: "sub/new.txt", oldString: "", newString: "pwned\n" }),
      () => s.session.run("apply_patch", { patchText: patch("*** Add File: sub/new.txt", "+pwned") }),
      () => s.session.run("write", { filePath: "sub/deep/er/new.txt", content: "pwned\n" }),
      () => s.session.run("apply_patch", { patchText: patch("*** Add File: sub/deep/new.txt", "+pwned") }),
    ];
    const deadline = Date.now() + 15_000;
    let count = 0;
    try {
      for (let i = 0; i < 150 && Date.now() < deadline; i++, count++) {
        await tries[i % tries.length]!();
        await s.sentinel.assertUntouched();
      }
    } finally {
      flipping = false;
      await flipper;
    }
    expect(count).toBeGreaterThanOrEqual(20);
    await s.sentinel.assertUntouched();
  }, 60_000);

  // Item 2: the name flips between absent and a link to the outside file while write runs on it. Whatever the
  // timing, the tool may only ask (rejected), write a file of its own in the workspace, or fail; the outside
  // file must never change.
  it("never overwrites the outside file while a name flips between absent and a link to it", async () => {
    const s = await open();
    const name = `${s.root}/flip`;
    let flipping = true;
    let flips = 0;
    const flipper = (async () => {
      while (flipping) {
        await s.runtime.fs.symlink(s.sentinel.file, name).catch(() => undefined);
        await s.runtime.fs.rm(name, { force: true }).catch(() => undefined);
        flips++;
      }
    })();
    const outcomes: Array<ToolCall["status"]> = [];
    const deadline = Date.now() + 15_000;
    try {
      for (let i = 0; i < 150 && Date.now() < deadline; i++) {
        const call = await s.session.run("write", { filePath: "flip", content: `try ${i}\n` });
        outcomes.push(call.status);
        s.sentinel.assertNotLeaked(call.output);
        await s.sentinel.assertUntouched();
      }
    } finally {
      flipping = false;
      await flipper;
    }
    expect(flips).toBeGreaterThan(0);
    expect(outcomes.length).toBeGreaterThanOrEqual(20);
    await s.sentinel.assertUntouched();
  }, 60_000);
});

// The same race with true parallelism: another process (the shell a model could leave running) flips the name
// as fast as it can while write, edit and apply_patch each aim at it in turn.
describe("a name flipped by another process (node)", () => {
  it("never overwrites the outside file nor adds beside it, over many tries", async () => {
    const s = (current = await attackedSession("node"));
    const flipper = spawn("bash", ["-c", 'while :; do ln -s "$1" flip 2>/dev/null; rm -f flip; done', "flipper", s.sentinel.file], {
      cwd: s.root,
      stdio: "ignore",
    });
    const exited = new Promise((resolve) => flipper.once("exit", resolve));
    const tries = [
      () => s.session.run("write", { filePath: "flip", content: "pwned\n" }),
      () => s.session.run("edit", { filePath: "flip", oldString: "", newString: "pwned\n" }),
      () => s.session.run("apply_patch", { patchText: patch("*** Add File: flip", "+pwned") }),
    ];
    const statuses = new Map<string, number>();
    const deadline = Date.now() + 20_000;
    let count = 0;
    try {
      for (let i = 0; i < 150 && Date.now() < deadline; i++, count++) {
        const call = await tries[i % tries.length]!();
        statuses.set(call.status, (statuses.get(call.status) ?? 0) + 1);
        s.sentinel.assertNotLeaked(call.output);
        s.sentinel.assertNotLeaked(call.error);
        await s.sentinel.assertUntouched();
      }
    } finally {
      flipper.kill("SIGKILL");
      await exited;
    }
    expect(count, `outcomes: ${JSON.stringify([...statuses])}`).toBeGreaterThanOrEqual(30);
    await s.sentinel.assertUntouched();
  }, 60_000);

  it("never writes outside while a folder on the way flips between a real folder and a link out", async () => {
    const s = (current = await attackedSession("node"));
    // rm -rf on the link removes the link only; on the real folder, whatever a tool wrote in it.
    const flipper = spawn(
      "bash",
      ["-c", 'while :; do rm -rf sub; mkdir sub; rm -rf sub; ln -s "$1" sub; done', "flipper", s.sentinel.dir],
      {
        cwd: s.root,
        stdio: "ignore",
      },
    );
    const exited = new Promise((resolve) => flipper.once("exit", resolve));
    const tries = [
      () => s.session.run("write", { filePath: "sub/new.txt", content: "pwned\n" }),
      () => s.session.run("edit", { filePath: "sub/new.txt", oldString: "", newString: "pwned\n" }),
      () => s.session.run("apply_patch", { patchText: patch("*** Add File: sub/new.txt", "+pwned") }),
      () => s.session.run("write", { filePath: "sub/deep/er/new.txt", content: "pwned\n" }),
    ];
    const deadline = Date.now() + 20_000;
    let count = 0;
    try {
      for (let i = 0; i < 150 && Date.now() < deadline; i++, count++) {
        await tries[i % tries.length]!();
        await s.sentinel.assertUntouched();
      }
    } finally {
      flipper.kill("SIGKILL");
      await exited;
    }
    expect(count).toBeGreaterThanOrEqual(30);
    await s.sentinel.assertUntouched();
  }, 60_000);
});
