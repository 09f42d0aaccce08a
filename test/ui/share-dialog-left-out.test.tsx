// @vitest-environment happy-dom
/** The Share dialog says which files it left out because they may hold keys, with the real codec behind it. */
import { cleanup, render, screen } from "@solidjs/testing-library";
import { afterEach, describe, expect, it } from "vitest";
import { makeShare } from "../../src/embed/share/browser.js";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import type { ShareActions } from "../../src/ui/share/share-actions.js";
import { ShareDialog } from "../../src/ui/share/ShareDialog.js";

let runtime: EmbeddedRuntime | undefined;
afterEach(async () => {
  cleanup();
  await runtime?.dispose();
  runtime = undefined;
});

const actions: ShareActions = {
  make: (rt, options) => makeShare(rt, { ...options, base: "https://workbench.example/" }),
  openFile: async () => {},
};

describe("Share names the files it leaves out", () => {
  it("lists .env files as not shared, and the link does not carry them", async () => {
    runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory, searchWorkers: 1 });
    await runtime.fs.writeFile("/workspace/.env", "KEY=sk-SECRET\n");
    await runtime.fs.writeFile("/workspace/a.txt", "a\n");
    render(() => <ShareDialog actions={actions} runtime={runtime!} name="demo" theme="dark" onClose={() => {}} />);
    const note = await screen.findByTestId("share-left-out", {}, { timeout: 10_000 });
    expect(note.textContent).toContain(".env");
    const link = (await screen.findByTestId("share-link")) as HTMLTextAreaElement;
    expect(link.value || link.textContent).not.toBe("");
  });

  it("says nothing when nothing was left out", async () => {
    runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory, searchWorkers: 1 });
    await runtime.fs.writeFile("/workspace/a.txt", "a\n");
    render(() => <ShareDialog actions={actions} runtime={runtime!} name="demo" theme="dark" onClose={() => {}} />);
    await screen.findByTestId("share-link", {}, { timeout: 10_000 });
    expect(screen.queryByTestId("share-left-out")).toBeNull();
  });
});
