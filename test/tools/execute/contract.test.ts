/**
 * The execute tool's contract: its parameters as the model sees them, offered only behind the flag, what a
 * program gets back and what the session records (each inner call its own call, named in execute's
 * metadata), permissions asked per inner call exactly as for a direct one, abort, and each limit with the
 * error that names it.
 */
import { asSchema } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import type { PermissionRequest } from "../../../src/tools/permission/types.js";
import { ExecuteTool } from "../../../src/tools/execute.js";
import { type Opened, openCodeMode } from "./harness.js";

const opened: Opened[] = [];
afterEach(async () => {
  for (const o of opened.splice(0)) await o.dispose();
});
async function open(...args: Parameters<typeof openCodeMode>): Promise<Opened> {
  const o = await openCodeMode(...args);
  opened.push(o);
  return o;
}

describe("execute: what the model sees", () => {
  it("takes one parameter, code, a non-empty string (the wire schema)", async () => {
    const tool = await ExecuteTool.init();
    const schema = (await asSchema(tool.parameters as never).jsonSchema) as Record<string, unknown>;
    expect(schema.type).toBe("object");
    expect(schema.required).toEqual(["code"]);
    expect(schema.additionalProperties).toBe(false);
    const code = (schema.properties as Record<string, Record<string, unknown>>).code!;
    expect(code.type).toBe("string");
    expect(code.minLength).toBe(1);
    expect(String(code.description)).toContain("await tools.<name>");
    expect(tool.description).toContain("Promise.all");
  });

  it("is offered only when Code Mode is on (workbench.experimentalCodeMode or the CLI's flag)", async () => {
    const on = await open();
    expect(on.session.registry.ids()).toContain("execute");
    const off = await open({}, { config: { workbench: {} } });
    expect(off.session.registry.ids()).not.toContain("execute");
    const flagged = await open({}, { config: { workbench: {} }, session: { flags: { codeMode: true } as never } });
    expect(flagged.session.registry.ids()).toContain("execute");
  });
});

describe("execute: a program over three tools", () => {
  it("reads, greps and globs; each inner call is a call of its own, named in order in execute's metadata", async () => {
    const o = await open({ "notes.txt": "alpha\nTODO beta\n", "src/a.ts": "// TODO a\nexport {};\n", "src/b.ts": "export {};\n" });
    const { call, inner } = await o.program(`
      const notes = await tools.read({ filePath: "notes.txt" });
      const [hits, files] = await Promise.all([tools.grep({ pattern: "TODO" }), tools.glob({ pattern: "src/*.ts" })]);
      console.log(notes.includes("TODO beta") ? "notes ok" : "notes missing");
      console.log(files.split("\\n").filter(Boolean).length + " ts files");
      return hits.split("\\n")[0];
    `);
    expect(call.error).toBeUndefined();
    expect(call.status).toBe("completed");
    expect(call.output).toBe("notes ok\n2 ts files\nFound 2 matches");
    expect(inner.map((c) => [c.tool, c.status])).toEqual([
      ["read", "completed"],
      ["grep", "completed"],
      ["glob", "completed"],
    ]);
    const entries = call.metadata.calls as Array<{ tool: string; callID: string; status: string }>;
    expect(entries.map((e) => e.callID)).toEqual(inner.map((c) => c.id));
    expect(entries.every((e) => e.status === "completed")).toBe(true);
    expect(call.title).toBe("execute (3 tool calls)");
  });

  it("gives a tool's failure to the program as an error it can catch; the inner call is recorded as failed", async () => {
    const o = await open();
    const { call, inner } = await o.program(`
      try { await tools.read({ filePath: "missing.txt" }); } catch (e) { console.log(e.name + " caught: " + e.message.split(":")[0]); }
      return "after";
    `);
    expect(call.output).toBe("ToolError caught: read failed\nafter");
    expect(inner.map((c) => c.status)).toEqual(["error"]);
    expect((call.metadata.calls as Array<{ status: string }>)[0]!.status).toBe("error");
  });

  it("fails the call on an uncaught throw, with what it printed before", async () => {
    const o = await open();
    const { call } = await o.program(`console.log("step 1"); throw new Error("no config found");`);
    expect(call.status).toBe("error");
    expect(call.error).toContain("The program threw an uncaught Error: no config found");
    expect(call.error).toContain("Printed before it stopped:\nstep 1");
  });

  it("says where a program does not parse, and names what it does not support", async () => {
    const o = await open();
    expect((await o.program("let x = ;")).call.error).toMatch(/does not parse: Unexpected token \(1:8\)/);
    expect((await o.program("import fs from 'fs';")).call.error).toMatch(/does not parse/);
    expect((await o.program("class A {}")).call.error).toContain("classes are not supported in execute");
    expect((await o.program("/a+/.test('aa')")).call.error).toContain("regular expressions are not supported in execute");
  });

  it("writes through an inner write, which the file shows", async () => {
    const o = await open();
    const { call } = await o.program(`await tools.write({ filePath: "out.txt", content: ["a", "b"].join("\\n") }); return "done";`);
    expect(call.output).toBe("done");
    expect(await o.read("out.txt")).toBe("a\nb");
  });
});

describe("execute: permissions", () => {
  it("asks for an inner bash exactly as for a direct one, at the inner call; a rejection fails only that call", async () => {
    const o = await open({}, { config: { workbench: { experimentalCodeMode: true }, permission: { bash: "ask" } } });
    const asked: PermissionRequest[] = [];
    o.session.bus.subscribe("permission.asked", (request) => {
      asked.push(request);
      queueMicrotask(() => o.session.permissions.reply(request.id, "reject"));
    });
    const { call, inner } = await o.program(`
      try { await tools.bash({ command: "echo hi > made.txt", description: "make a file" }); } catch (e) { console.log("refused"); }
    `);
    expect(call.output).toBe("refused");
    expect(asked.map((r) => [r.permission, r.patterns])).toEqual([["bash", ["echo hi > made.txt"]]]);
    expect(asked[0]!.tool?.callID).toBe(inner[0]!.id);
    expect(inner[0]!.status).toBe("error");
    await expect(o.read("made.txt")).rejects.toThrow();
  });

  it("is itself the V2 action `execute`: denied, no program runs and no inner call is made", async () => {
    const o = await open(
      {},
      { config: { workbench: { experimentalCodeMode: true }, permissions: [{ action: "execute", resource: "*", effect: "deny" }] } },
    );
    const { call, inner } = await o.program(`await tools.write({ filePath: "x.txt", content: "x" });`);
    expect(call.status).toBe("error");
    expect(inner).toEqual([]);
    await expect(o.read("x.txt")).rejects.toThrow();
  });
});

describe("execute: abort", () => {
  it("ends the program and its running inner call when the execute call is aborted", async () => {
    const o = await open();
    const controller = new AbortController();
    await o.session.run("bash", { command: "true", description: "start the shell" });
    // Aborted once the inner bash runs (the program's worker takes a while to load under tsx).
    let abortedAt = 0;
    o.session.bus.subscribe("call.updated", ({ callID }) => {
      const running = o.session.session.calls.find((c) => c.id === callID);
      if (running?.tool === "bash" && running.status === "running" && !abortedAt)
        setTimeout(() => {
          abortedAt = Date.now();
          controller.abort();
        }, 200);
    });
    const { call, inner } = await o.program(
      `await tools.bash({ command: "sleep 20", description: "wait" }); console.log("never");`,
      controller.signal,
    );
    expect(abortedAt).toBeGreaterThan(0);
    expect(Date.now() - abortedAt).toBeLessThan(5_000);
    expect(call.status).toBe("error");
    expect(call.error).toContain("The program was stopped: the call was aborted.");
    expect(call.output ?? "").not.toContain("never");
    // The inner bash ended as a direct one does when aborted: with the note that says so.
    expect(inner).toHaveLength(1);
    expect(inner[0]!.output).toContain("User aborted the command");
  });
});

describe("execute: limits, each with an error that names it", () => {
  it("maxToolCalls: the call past the limit stops the program; only the allowed calls were made", async () => {
    const o = await open({ "a.txt": "a\n" }, { limits: { maxToolCalls: 3 } });
    const { call, inner } = await o.program(`for (let i = 0; i < 10; i++) { try { await tools.read({ filePath: "a.txt" }); } catch {} }`);
    expect(call.error).toContain("called more than 3 tools");
    expect(inner).toHaveLength(3);
  });

  it("timeoutMs: a program waiting on a slow tool is stopped on time, and the tool with it", async () => {
    const o = await open({}, { limits: { timeoutMs: 400 } });
    const started = Date.now();
    const { call, inner } = await o.program(`await tools.bash({ command: "sleep 20", description: "wait" });`);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(call.error).toContain("ran longer than 400 ms");
    expect(inner).toHaveLength(1);
    expect(inner[0]!.output).toContain("User aborted the command");
  });

  it("timeoutMs: a busy loop is stopped on time too (the clock is read as it runs)", async () => {
    const o = await open({}, { limits: { timeoutMs: 300, maxSteps: Number.MAX_SAFE_INTEGER } });
    const { call } = await o.program(`let n = 0; while (true) { n++; }`);
    expect(call.error).toContain("ran longer than 300 ms");
  });

  it("maxSteps: an endless loop, even one that catches everything, stops", async () => {
    const o = await open({}, { limits: { maxSteps: 5_000 } });
    const { call } = await o.program(`while (true) { try { for (;;) {} } catch (e) {} finally {} }`);
    expect(call.error).toContain("more than 5000 steps");
  });

  it("maxOutputBytes: printing past the limit stops the program", async () => {
    const o = await open({}, { limits: { maxOutputBytes: 1000 } });
    const { call } = await o.program(`for (let i = 0; i < 1000; i++) console.log("line " + i);`);
    expect(call.error).toContain("printed more than 1000 bytes");
    const returned = await o.program(`return "x".repeat(2000);`);
    expect(returned.call.error).toContain("printed more than 1000 bytes");
  });

  it("maxCallDepth: runaway recursion stops with the limit's error, not the host's stack", async () => {
    const o = await open();
    const { call } = await o.program(`function down(n) { return down(n + 1); } down(0);`);
    expect(call.error).toContain("nested more than 100 calls deep");
  });

  it("maxValueSize and maxAllocation: a huge string or array is refused before it is built", async () => {
    const o = await open({}, { limits: { maxValueSize: 10_000, maxAllocation: 50_000 } });
    expect((await o.program(`"ab".repeat(1e9)`)).call.error).toContain("grew to 2000000000 characters or elements");
    expect((await o.program(`const a = []; a[1e9] = 1;`)).call.error).toContain("past the limit of 10000");
    expect((await o.program(`const a = []; a.length = 1e9;`)).call.error).toContain("past the limit of 10000");
    expect((await o.program(`let s = "x"; while (true) s = s + s;`)).call.error).toContain("past the limit of 10000");
    expect((await o.program(`const all = []; for (let i = 0; i < 100; i++) all.push("y".repeat(5000));`)).call.error).toContain(
      "more than 50000 characters and elements in all",
    );
  });

  it("maxSourceLength: a program too long to take is refused before it parses", async () => {
    const o = await open({}, { limits: { maxSourceLength: 100 } });
    expect((await o.program(`// ${"x".repeat(200)}`)).call.error).toContain("past the limit of 100");
  });

  it("limits cannot be caught by the program", async () => {
    const o = await open({ "a.txt": "a\n" }, { limits: { maxToolCalls: 1 } });
    const { call } = await o.program(`
      for (let i = 0; i < 3; i++) { try { await tools.read({ filePath: "a.txt" }); } catch (e) { console.log("caught " + i); } }
      console.log("went on");
    `);
    expect(call.status).toBe("error");
    expect(call.error).not.toContain("went on");
    expect(call.error).toContain("called more than 1 tools");
  });
});
