import { afterEach, describe, expect, it } from "vitest";
import type { PageTools } from "../../src/page/page-tools.js";
import { disposePages, pageWith } from "../support/page-tools.js";

afterEach(disposePages);

const text = async (page: PageTools, path: string) => {
  const { runtime } = page.session;
  return new TextDecoder().decode(await runtime.fs.readFile(`${runtime.root}/${path}`));
};

describe("contract: the page's session starts calls, aborts them and answers their prompts", () => {
  it("lists the registered tools with their schemas, without the model-only invalid tool", async () => {
    const page = await pageWith({});
    const ids = (await page.tools()).map((tool) => tool.id);
    expect(ids).toEqual(expect.arrayContaining(["bash", "read", "edit", "write", "grep", "glob", "list"]));
    expect(ids).not.toContain("invalid");
  });

  it("returns the call's live record at once, and it ends completed", async () => {
    const page = await pageWith({ "a.txt": "hello\n" });
    let changes = 0;
    page.onChange(() => changes++);
    const { call, done } = page.start("read", { filePath: "a.txt" });
    expect(page.calls).toContain(call);
    expect(["pending", "running"]).toContain(call.status);
    const final = await done;
    expect(final).toBe(call);
    expect(call.status).toBe("completed");
    expect(call.output).toContain("hello");
    expect(changes).toBeGreaterThan(1);
  });

  it("aborts a running bash call, which then reads as aborted", async () => {
    const page = await pageWith({});
    const { call, done } = page.start("bash", { command: "sleep 30", description: "Sleeps" });
    while (call.status !== "running") await new Promise((resolve) => setTimeout(resolve, 10));
    expect(page.abort(call.id)).toBe(true);
    await done;
    expect(page.wasAborted(call.id)).toBe(true);
    expect(call.output ?? call.error).toContain("aborted");
    expect(page.abort(call.id)).toBe(false);
  });

  it("holds an asking write as a pending prompt; a rejection writes nothing", async () => {
    const page = await pageWith({ "opencode.json": '{"permission":{"edit":"ask"}}' });
    const { done } = page.start("write", { filePath: "n.txt", content: "new" });
    let ended = false;
    void done.finally(() => (ended = true));
    while (page.pending().length === 0 && !ended) await new Promise((resolve) => setTimeout(resolve, 10));
    const [request] = page.pending();
    expect(request!.permission).toBe("edit");
    expect(page.reply(request!.id, "reject", "not now")).toBe(true);
    const call = await done;
    expect(call.status).toBe("error");
    expect(call.permissions[0]).toMatchObject({ answer: "reject", message: "not now" });
    await expect(text(page, "n.txt")).rejects.toThrow();
  });
});
