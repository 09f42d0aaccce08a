import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createNodeRuntime } from "../../src/runtime/node/index.js";

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

describe("node runtime hiddenEnv", () => {
  it("keeps hidden variables from every command, even ones named after creation or passed by the command", async () => {
    const root = await mkdtemp(join(tmpdir(), "wb-hidden-env-"));
    folders.push(root);
    const hidden = new Set(["SECRET_ONE"]);
    const runtime = createNodeRuntime({
      root,
      env: { SECRET_ONE: "s1-value", SECRET_TWO: "s2-value", PLAIN: "plain-value", PATH: process.env.PATH ?? "" },
      hiddenEnv: hidden,
      searchThreads: 0,
    });
    try {
      hidden.add("SECRET_TWO");
      const result = await runtime.exec("env", { env: { SECRET_ONE: "again" } });
      expect(result.stdout).toContain("PLAIN=plain-value");
      expect(result.stdout).not.toMatch(/SECRET_ONE|SECRET_TWO|s1-value|s2-value|again/);
    } finally {
      await runtime.dispose?.();
    }
  });
});
