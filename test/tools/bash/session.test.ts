/**
 * The bash tool inside a session: registered as a built-in, asking `bash` per command (and `external_directory` for a
 * workdir outside the workspace) through the permission engine, and truncating through the session's
 * streaming sink into the data folder.
 */
import { afterEach, describe, expect, it } from "vitest";
import { sessionWith } from "../../support/tool-session.js";

let dispose: (() => Promise<void>) | undefined;
afterEach(async () => {
  await dispose?.();
  dispose = undefined;
});

async function open(files: Record<string, string> = {}) {
  const s = await sessionWith(files);
  dispose = s.dispose;
  return s;
}

describe("bash in a session", () => {
  it("is a built-in that asks bash for each command of the line, with their arity prefixes as always patterns", async () => {
    const { session } = await open();
    expect(session.registry.ids()).toContain("bash");
    const call = await session.run("bash", { command: "echo hi && echo there", description: "Greets" });
    expect(call.status).toBe("completed");
    expect(call.output).toBe("hi\nthere\n");
    expect(call.title).toBe("Greets");
    expect(call.metadata).toMatchObject({ exit: 0, truncated: false, output: "hi\nthere\n" });
    expect(call.permissions).toEqual([{ permission: "bash", patterns: ["echo hi", "echo there"], always: ["echo *"], answer: "allow" }]);
  });

  it("is refused by a deny rule in opencode.json, and runs nothing", async () => {
    const { session, runtime } = await open({ "opencode.json": JSON.stringify({ permission: { bash: { "touch *": "deny" } } }) });
    const call = await session.run("bash", { command: "touch made.txt", description: "Makes a file" });
    expect(call.status).toBe("error");
    expect(call.error).toMatch(/prevents you from using this specific tool call/);
    await expect(runtime.fs.stat(`${runtime.root}/made.txt`)).rejects.toThrow(/ENOENT/);
  });

  it("asks external_directory for a workdir outside the workspace, and runs there once allowed", async () => {
    const { session, runtime } = await open();
    await runtime.fs.mkdir("/outside");
    let answer: "once" | "reject" = "reject";
    session.bus.subscribe("permission.asked", (request) => queueMicrotask(() => session.permissions.reply(request.id, answer)));
    const refused = await session.run("bash", { command: "pwd", description: "Where", workdir: "/outside" });
    expect(refused.status).toBe("error");
    expect(refused.permissions).toEqual([
      { permission: "external_directory", patterns: ["/outside/*"], always: ["/outside/*"], answer: "reject" },
    ]);
    answer = "once";
    const allowed = await session.run("bash", { command: "pwd", description: "Where", workdir: "/outside" });
    expect(allowed.output).toBe("/outside\n");
    expect(allowed.permissions.map((p) => [p.permission, p.answer])).toEqual([
      ["external_directory", "once"],
      ["bash", "allow"],
    ]);
  });

  it("truncates a long output through the session's streaming sink, saving it in the data folder", async () => {
    const { session, runtime } = await open();
    const call = await session.run("bash", { command: "seq 1 3000", description: "Counts far" });
    expect(call.status).toBe("completed");
    expect(call.metadata.truncated).toBe(true);
    const path = call.metadata.outputPath as string;
    expect(path).toMatch(/^\/data\/tool-output\/tool_/);
    expect(call.output).toContain(
      "\n2000\n\n...1001 lines truncated...\n\nThe tool call succeeded but the output was truncated. Full output saved to: ",
    );
    const saved = new TextDecoder().decode(await runtime.fs.readFile(path));
    expect(saved.split("\n").length).toBe(3001);
    expect(saved.endsWith("2999\n3000\n")).toBe(true);
  });
});
