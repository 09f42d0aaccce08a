/** The first visit's sample project: written once, into its own folder, never over what is there. */
import { afterEach, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import { addSampleProject } from "../../src/workspace/sample-project.js";

let runtime: EmbeddedRuntime | undefined;
afterEach(async () => {
  await runtime?.dispose();
  runtime = undefined;
});

describe("sample project", () => {
  it("lands in sample-project/ with its README, and the shell sees it", async () => {
    runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
    const added = await addSampleProject(runtime);
    expect(added).toEqual({ folder: `${runtime.root}/sample-project`, readme: `${runtime.root}/sample-project/README.md`, created: true });
    const listed = await runtime.exec("cd sample-project && find . -type f && grep -rn TODO src");
    const files = listed.stdout
      .split("\n")
      .filter((line) => line.startsWith("./"))
      .sort();
    expect(files).toEqual(["./README.md", "./notes/ideas.md", "./package.json", "./src/greet.test.ts", "./src/greet.ts"]);
    expect(listed.stdout).toContain("src/greet.ts:4:  // TODO: greet in other languages too");
  });

  it("a second click, or a folder of that name already there, writes nothing", async () => {
    runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
    await runtime.fs.mkdir(`${runtime.root}/sample-project`);
    await runtime.fs.writeFile(`${runtime.root}/sample-project/README.md`, "mine");
    const added = await addSampleProject(runtime);
    expect(added.created).toBe(false);
    expect(new TextDecoder().decode(await runtime.fs.readFile(added.readme))).toBe("mine");
    expect((await runtime.fs.readdir(added.folder)).map((entry) => entry.name)).toEqual(["README.md"]);
  });
});
