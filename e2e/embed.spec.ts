/**
 * The embed from a host page on another origin: the workbench (and its frame) is served on 127.0.0.1
 * by the suite's server, the host pages on localhost by a static server started here, so every call
 * crosses origins the way a docs site's does.
 */
import { createServer, type Server } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join } from "node:path";
import type { Page } from "@playwright/test";
import { decodeShareLink } from "../src/embed/share/index.js";
import { expect, freshWorkspace, openWorkbench, runInTerminal, test, waitForIdle } from "./fixtures.js";

const WORKBENCH = `http://127.0.0.1:${Number(process.env.PW_PORT ?? 4321)}/`;
const HOST_PORT = Number(process.env.PW_HOST_PORT ?? Number(process.env.PW_PORT ?? 4321) + 1);
const HOST = `http://localhost:${HOST_PORT}`;
const EXAMPLE = join(process.cwd(), "examples/docs-embed");

// A bare host page: the library on window, two places for embeds.
const HOST_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>host</title></head><body>
<div id="a"></div><div id="b"></div>
<script type="module">
  window.lib = await import(${JSON.stringify(`${WORKBENCH}embed.js`)});
  window.vms = {};
  window.events = { a: [], b: [] };
  document.body.dataset.ready = "1";
</script></body></html>`;

const TYPES: Record<string, string> = { ".html": "text/html", ".json": "application/json", ".js": "text/javascript" };

let server: Server;
test.beforeAll(async () => {
  // Plain static files with no special headers, as a docs host serves them.
  server = createServer(async (req, res) => {
    const path = new URL(req.url ?? "/", HOST).pathname;
    if (path === "/host.html") return res.writeHead(200, { "content-type": "text/html" }).end(HOST_PAGE);
    const file = join(EXAMPLE, path === "/" ? "index.html" : path.slice(1));
    if (!file.startsWith(EXAMPLE)) return res.writeHead(403).end();
    try {
      const body = await readFile(file);
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body);
    } catch {
      res.writeHead(404).end("not found");
    }
  });
  await new Promise<void>((resolve) => server.listen(HOST_PORT, "localhost", resolve));
});
test.afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function openHost(page: Page): Promise<void> {
  await page.goto(`${HOST}/host.html`);
  await expect(page.locator("body[data-ready]")).toBeAttached();
}

/** Embeds into `#slot` with `options` (JSON-safe) and keeps the vm and its events on window. */
async function embedInto(page: Page, slot: "a" | "b", options: Record<string, unknown>): Promise<void> {
  await page.evaluate(
    async ({ slot, options }) => {
      const w = window as unknown as {
        lib: { embed: (el: string, o: unknown) => Promise<any> };
        vms: Record<string, any>;
        events: Record<string, unknown[]>;
      };
      const vm = await w.lib.embed(slot, options);
      for (const name of ["call", "files", "resize"]) vm.on(name, (data: unknown) => w.events[slot]!.push({ name, data }));
      w.vms[slot] = vm;
    },
    { slot, options },
  );
}

/** Calls `vm[method](...args)` in the host page; a rejection comes back as { error }. */
function call(page: Page, slot: "a" | "b", method: string, ...args: unknown[]): Promise<{ value?: any; error?: string }> {
  return page.evaluate(
    async ({ slot, method, args }) => {
      const vm = (window as unknown as { vms: Record<string, any> }).vms[slot];
      try {
        const value = await vm[method](...args);
        return { value: value instanceof Uint8Array ? { bytes: [...value] } : value };
      } catch (error) {
        return { error: (error as Error).message };
      }
    },
    { slot, method, args },
  );
}

function events(page: Page, slot: "a" | "b"): Promise<{ name: string; data: any }[]> {
  return page.evaluate((slot) => (window as unknown as { events: Record<string, { name: string; data: any }[]> }).events[slot]!, slot);
}

test("handshake, start files, snapshot (text and bytes), applyFsDiff and file events across origins", async ({ page }) => {
  await openHost(page);
  await embedInto(page, "a", {
    files: { "src/app.ts": "export const x = 1;\n", "logo.bin": new Uint8Array([0, 255, 1, 254]) as unknown as never },
    view: "tools",
  });
  const frame = page.frameLocator("#a");
  await expect(frame.getByTestId("embed-app")).toBeVisible();
  expect(await page.locator("#a").getAttribute("src")).toContain(`${WORKBENCH}?embed=1`);

  // The frame is not cross-origin isolated (its host sends no COOP/COEP), and works all the same.
  expect(await frame.locator("html").evaluate(() => self.crossOriginIsolated)).toBe(false);
  // embed.js is served to any origin (vite's own CORS answers local origins by name; a docs site's gets "*").
  const script = await page.request.get(`${WORKBENCH}embed.js`, { headers: { Origin: "https://docs.example.com" } });
  expect(script.headers()["access-control-allow-origin"]).toBe("*");
  const other = await page.request.get(`${WORKBENCH}index.html`, { headers: { Origin: "https://docs.example.com" } });
  expect(other.headers()["access-control-allow-origin"]).toBeUndefined();

  const snapshot = await call(page, "a", "getFsSnapshot");
  expect(snapshot.error).toBeUndefined();
  expect(snapshot.value["src/app.ts"]).toBe("export const x = 1;\n");
  // Bytes that are not UTF-8 come back as bytes (a Uint8Array, which evaluate turns into an object of indexes).
  expect(Object.values(snapshot.value["logo.bin"])).toEqual([0, 255, 1, 254]);

  expect(await call(page, "a", "applyFsDiff", { create: { "docs/new.md": "# new\n" }, destroy: ["src/app.ts"] })).toEqual({});
  const after = (await call(page, "a", "getFsSnapshot")).value;
  expect(Object.keys(after).sort()).toEqual(["docs/new.md", "logo.bin"]);
  await expect
    .poll(async () => (await events(page, "a")).filter((e) => e.name === "files").flatMap((e) => e.data))
    .toEqual(expect.arrayContaining(["docs/new.md"]));

  // A path out of the workspace is refused, with nothing written.
  const escape = await call(page, "a", "applyFsDiff", { create: { "ok.txt": "fine", "../outside.txt": "no" } });
  expect(escape.error).toContain('refused "../outside.txt"');
  expect(Object.keys((await call(page, "a", "getFsSnapshot")).value)).not.toContain("ok.txt");
});

test("runTool returns the call record, sends call events, and a permission prompt is answered only in the frame", async ({ page }) => {
  await openHost(page);
  await embedInto(page, "a", { files: { "notes.md": "one\ntwo\n" }, config: { permission: { bash: "ask" } }, view: "tools" });
  const read = await call(page, "a", "runTool", "read", { filePath: "notes.md" });
  expect(read.value.status).toBe("completed");
  expect(read.value.output).toContain("00001| one");
  const callEvents = (await events(page, "a")).filter((e) => e.name === "call" && e.data.id === read.value.id);
  expect(callEvents.map((e) => e.data.status)).toContain("completed");

  // bash asks (the host's config said so): the call waits for the reader's answer in the frame.
  const pending = page.evaluate(() =>
    (window as unknown as { vms: Record<string, any> }).vms.a.runTool("bash", {
      command: "echo hi > made.txt",
      description: "Writes made.txt",
    }),
  );
  const frame = page.frameLocator("#a");
  const prompt = frame.getByTestId("permission-prompt");
  await expect(prompt).toBeVisible();
  await expect(prompt).toContainText("echo hi > made.txt");
  await prompt.getByRole("button", { name: /allow once/i }).click();
  const bash = await pending;
  expect(bash.status).toBe("completed");
  expect((await call(page, "a", "getFsSnapshot")).value["made.txt"]).toBe("hi\n");

  // An unknown method's parameters are refused with the reason.
  const bad = await call(page, "a", "runTool", "", {});
  expect(bad.error).toMatch(/^runTool: tool:/);
});

test("run() replays the session script through the real loop; without a script it says why it cannot", async ({ page }) => {
  await openHost(page);
  const script = {
    version: 1,
    steps: [
      { text: "Writing it.", toolCalls: [{ tool: "write", input: { filePath: "out.txt", content: "from the script\n" } }] },
      { text: "All done here." },
    ],
  };
  await embedInto(page, "a", { session: script, view: "chat" });
  expect(await call(page, "a", "run", "please write out.txt")).toEqual({});
  const frame = page.frameLocator("#a");
  const chat = frame.locator("#right-panel-chat");
  await expect(chat.getByText("please write out.txt").first()).toBeVisible();
  await expect(chat.getByText("All done here.").first()).toBeVisible();
  expect((await call(page, "a", "getFsSnapshot")).value["out.txt"]).toBe("from the script\n");

  await embedInto(page, "b", { view: "chat" });
  const refused = await call(page, "b", "run", "hello");
  expect(refused.error).toContain("no model to answer with");
});

test("openFile, setTheme, setView and measure change the frame", async ({ page }) => {
  await openHost(page);
  await embedInto(page, "a", { files: { "src/main.ts": "const answer = 42;\n" }, theme: "dark", view: "chat" });
  const frame = page.frameLocator("#a");
  await expect(frame.locator("html")).toHaveAttribute("data-theme", "dark");
  await page.locator("#a").screenshot({ path: "e2e/screenshots/embed-chat-dark.png" });
  expect(await call(page, "a", "setTheme", "light")).toEqual({});
  await expect(frame.locator("html")).toHaveAttribute("data-theme", "light");
  expect(await call(page, "a", "openFile", "src/main.ts")).toEqual({});
  await expect(frame.locator('[data-testid=file-editor][data-path="/workspace/src/main.ts"]')).toBeVisible();
  await expect(frame.locator('[data-testid=file-editor][data-path="/workspace/src/main.ts"]')).toContainText("const answer = 42;");
  await page.locator("#a").screenshot({ path: "e2e/screenshots/embed-editor-light.png" });
  expect((await call(page, "a", "openFile", "missing.ts")).error).toContain('no file "missing.ts"');
  expect(await call(page, "a", "setView", "tools")).toEqual({});
  await expect(frame.getByTestId("embed-app")).toHaveAttribute("data-view", "tools");
  expect((await call(page, "a", "setView", "sideways")).error).toMatch(/^setView: view:/);
  const height = (await call(page, "a", "measure")).value;
  expect(height).toBeGreaterThan(100);
});

test("shareUrl and 'Open in workbench' carry the embed's files, session and view in a share link", async ({ page, context }) => {
  await openHost(page);
  await embedInto(page, "a", {
    files: { "keep.md": "kept\n", "raw.bin": new Uint8Array([0, 200, 7]) as unknown as never },
    view: "tools",
    theme: "light",
  });
  await call(page, "a", "runTool", "read", { filePath: "keep.md" });
  const link = (await call(page, "a", "shareUrl")).value as string;
  expect(link.startsWith(`${WORKBENCH}#share=1.`)).toBe(true);
  const decoded = await decodeShareLink(link);
  if (!decoded.ok) throw new Error(decoded.error);
  expect(decoded.state.files["keep.md"]).toBe("kept\n");
  expect([...(decoded.state.files["raw.bin"] as Uint8Array)]).toEqual([0, 200, 7]);
  expect(decoded.state.session?.session.calls.map((c: { tool: string }) => c.tool)).toEqual(["read"]);
  expect(decoded.state.view).toEqual({ panes: ["tools"], theme: "light" });

  const opened = context.waitForEvent("page");
  await page.frameLocator("#a").getByTestId("open-in-workbench").click();
  const full = await opened;
  expect(full.url()).toContain("#share=1.");
});

test("a recorded session is shown as it was; open and readOnly show files that cannot be saved", async ({ page }) => {
  await openHost(page);
  await embedInto(page, "a", { files: { "story.md": "once\n" }, view: "tools" });
  await call(page, "a", "runTool", "read", { filePath: "story.md" });
  const decoded = await decodeShareLink((await call(page, "a", "shareUrl")).value as string);
  if (!decoded.ok) throw new Error(decoded.error);
  const recorded = decoded.state.session!;

  // A second embed shows that session (its card, its output), with the file open and read-only.
  await embedInto(page, "b", { files: { "story.md": "once\n" }, session: recorded, open: ["story.md"], readOnly: true, view: "tools" });
  const frame = page.frameLocator("#b");
  const editor = frame.locator('[data-testid=file-editor][data-path="/workspace/story.md"]');
  await expect(editor).toBeVisible();
  await expect(editor).toContainText("once");
  await expect(editor.getByTestId("save-file")).toHaveCount(0);
  await call(page, "b", "setView", "tools");
  await expect(frame.getByTestId("call-card")).toHaveCount(1);
  await expect(frame.getByTestId("call-card")).toContainText("story.md");

  // A session that is not one is refused with the reason, and the embed is not started with it.
  await page.evaluate(() => document.body.insertAdjacentHTML("beforeend", '<div id="c"></div>'));
  const refused = await page.evaluate(async () => {
    try {
      await (window as unknown as { lib: { embed: (el: string, o: unknown) => Promise<unknown> } }).lib.embed("c", {
        session: { format: "workbench-session", version: 9 },
      });
      return "started";
    } catch (error) {
      return (error as Error).message;
    }
  });
  expect(refused).not.toBe("started");
  expect(refused.length).toBeGreaterThan(10);
});

test("height auto: the frame follows its content as calls are added", async ({ page }) => {
  await openHost(page);
  await embedInto(page, "a", { files: { "a.txt": "a\n" }, view: "tools", height: "auto" });
  const iframe = page.locator("#a");
  // Started: the frame already has its content's height (480 px is the height before it reports).
  const measured = (await call(page, "a", "measure")).value as number;
  await expect.poll(async () => Math.round((await iframe.boundingBox())!.height)).toBe(measured + 2);
  const first = (await iframe.boundingBox())!.height;
  for (let i = 0; i < 4; i++) await call(page, "a", "runTool", "read", { filePath: "a.txt" });
  await expect.poll(async () => (await iframe.boundingBox())!.height).toBeGreaterThan(first + 50);
  // Each growth came as a resize event, and the frame's height is the last one reported (+ its 1 px borders).
  await expect.poll(async () => (await events(page, "a")).filter((e) => e.name === "resize").length).toBeGreaterThan(0);
  const reported = (await events(page, "a")).filter((e) => e.name === "resize").at(-1)!.data.height;
  await expect.poll(async () => Math.round((await iframe.boundingBox())!.height)).toBe(reported + 2);
});

test("connect() drives a frame the page wrote itself", async ({ page }) => {
  await openHost(page);
  const result = await page.evaluate(async (src) => {
    const frame = document.createElement("iframe");
    frame.src = src;
    document.body.append(frame);
    const vm = await (window as unknown as { lib: { connect: (f: HTMLIFrameElement) => Promise<any> } }).lib.connect(frame);
    await vm.applyFsDiff({ create: { "by-hand.txt": "hand\n" } });
    const call = await vm.runTool("read", { filePath: "by-hand.txt" });
    return { status: call.status, output: call.output as string };
  }, `${WORKBENCH}?embed=1&view=tools`);
  expect(result.status).toBe("completed");
  expect(result.output).toContain("00001| hand");
});

test("an origin not on the allow-list is refused with the reason", async ({ page }) => {
  await openHost(page);
  const outcome = await page.evaluate(async () => {
    try {
      await (window as unknown as { lib: { embed: (el: string, o: unknown) => Promise<unknown> } }).lib.embed("a", {
        origins: ["https://docs.example.com"],
      });
      return "connected";
    } catch (error) {
      return (error as Error).message;
    }
  });
  expect(outcome).toContain(`does not accept ${HOST}`);
  expect(outcome).toContain("https://docs.example.com");
});

test("clickToLoad: nothing starts until the reader presses the button; then the host's files are there", async ({ page }) => {
  await openHost(page);
  const pending = embedInto(page, "a", { files: { "late.txt": "late\n" }, clickToLoad: true });
  await expect(page.locator("iframe#a")).toBeAttached();
  const frame = page.frameLocator("iframe#a");
  await expect(frame.getByTestId("embed-load")).toBeVisible();
  await expect(frame.getByTestId("embed-app")).toHaveCount(0);
  await frame.getByTestId("embed-load").click();
  await pending;
  await expect(frame.getByTestId("embed-app")).toBeVisible();
  expect((await call(page, "a", "getFsSnapshot")).value).toEqual({ "late.txt": "late\n" });
});

test("390 px wide: the embed's header and tools fit without scrolling sideways", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await openHost(page);
  await embedInto(page, "a", { files: { "a.txt": "a\n" }, view: "tools", theme: "dark" });
  await call(page, "a", "runTool", "read", { filePath: "a.txt" });
  const frame = page.frameLocator("#a");
  await expect(frame.getByTestId("open-in-workbench")).toBeVisible();
  const overflow = await frame.locator("html").evaluate((html) => html.scrollWidth - html.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.locator("#a").screenshot({ path: "e2e/screenshots/embed-tools-390-dark.png" });
});

test("two embeds on one page are kept apart", async ({ page }) => {
  await openHost(page);
  await embedInto(page, "a", { files: { "only-a.txt": "a\n" }, view: "tools" });
  await embedInto(page, "b", { files: { "only-b.txt": "b\n" }, view: "tools" });
  await call(page, "a", "runTool", "write", { filePath: "written-by-a.txt", content: "x\n" });
  expect(Object.keys((await call(page, "a", "getFsSnapshot")).value).sort()).toEqual(["only-a.txt", "written-by-a.txt"]);
  expect(Object.keys((await call(page, "b", "getFsSnapshot")).value)).toEqual(["only-b.txt"]);
  const bEvents = await events(page, "b");
  expect(bEvents.filter((e) => e.name === "call")).toEqual([]);
  await expect(page.frameLocator("#b").getByTestId("call-card")).toHaveCount(0);
});

test("an embed cannot see a file the top-level workbench wrote", async ({ page, context }) => {
  const top = await context.newPage();
  await openWorkbench(top, freshWorkspace("embed-top", false));
  await runInTerminal(top, "printf 'top secret\\n' > secret.txt");
  await waitForIdle(top);
  await expect(top.locator('.file-tree li[data-path="/workspace/secret.txt"]')).toBeVisible();

  await openHost(page);
  await embedInto(page, "a", { view: "tools" });
  const read = await call(page, "a", "runTool", "read", { filePath: "secret.txt" });
  expect(read.value.status).toBe("error");
  expect(Object.keys((await call(page, "a", "getFsSnapshot")).value)).not.toContain("secret.txt");
  const glob = await call(page, "a", "runTool", "glob", { pattern: "**/*.txt" });
  expect(glob.value.status).toBe("completed");
  expect(glob.value.output).not.toContain("secret.txt");
});

test("the docs example: a replayed session and tools the reader types, from another origin", async ({ page }) => {
  await page.goto(`${HOST}/?workbench=${encodeURIComponent(WORKBENCH)}`);
  await expect(page.locator("body[data-ready]")).toBeAttached({ timeout: 30_000 });
  const replay = page.frameLocator("#replay");
  await expect(replay.getByText("called from **main.js**".replace(/\*\*/g, ""))).toBeVisible({ timeout: 30_000 });
  // The replay scrolls its transcript, never the frame: the header stays in view.
  await expect(replay.getByTestId("open-in-workbench")).toBeInViewport();
  await page.locator("#replay").screenshot({ path: "e2e/screenshots/embed-docs-replay.png" });
  const edited = await page.evaluate(async () => (await (window as unknown as { replay: any }).replay.getFsSnapshot())["greet.js"]);
  expect(edited).toContain("export function greet(name)");

  await page.selectOption("#tool", "glob");
  await page.fill("#args", '{ "pattern": "**/*.md" }');
  await page.click("button[type=submit]");
  await expect(page.locator("#result")).toContainText("completed:");
  await expect(page.locator("#result")).toContainText("notes.md");
  await page.screenshot({ path: "e2e/screenshots/embed-docs-example.png", fullPage: true });
});

test('view: "preview" opens the embed on its files\' web app running, in a frame of its own origin', async ({ page }) => {
  await openHost(page);
  await embedInto(page, "a", {
    files: {
      "index.html": '<!doctype html><title>Demo</title><h1 id="out">static</h1><script type="module" src="./main.ts"></script>',
      "main.ts":
        'const label: string = "running in the embed";\ndocument.getElementById("out")!.textContent = label;\nconsole.log("embed preview", label.length);\n',
    },
    view: "preview",
  });
  const embed = page.frameLocator("#a");
  await expect(embed.getByTestId("embed-view-preview")).toHaveAttribute("aria-selected", "true");
  await expect(embed.frameLocator("[data-testid=preview-frame]").locator("#out")).toHaveText("running in the embed");
  await expect(embed.getByTestId("preview-line").filter({ hasText: "embed preview 20" })).toContainText("main.ts:3");
  expect(await embed.getByTestId("preview-frame").getAttribute("sandbox")).not.toContain("allow-same-origin");
});

test("an embed never offers Trust for the host's code", async ({ page }) => {
  await openHost(page);
  const hello = `import { tool } from "@opencode-ai/plugin"; export default tool({ description: "Greets", args: {}, async execute() { return "hi"; } });`;
  await embedInto(page, "a", { files: { ".opencode/tool/hello.ts": hello, "a.txt": "a\n" }, view: "tools" });
  const frame = page.frameLocator("#a");
  const notice = frame.getByTestId("trust-notice");
  await expect(notice).toContainText("An embed never runs them");
  await expect(notice.locator(".trust-files li")).toHaveText([".opencode/tool/hello.ts"]);
  await expect(frame.getByTestId("trust-workspace")).toHaveCount(0);
  await expect(frame.getByTestId("mcp-trust")).toHaveCount(0);
  await page.locator("#a").screenshot({ path: "e2e/screenshots/embed-no-trust.png" });
});

test("the README's example: an embed's hello.js runs with node in the frame, and what it writes reaches the host", async ({ page }) => {
  await openHost(page);
  await embedInto(page, "a", {
    files: { "hello.js": "console.log('hi')\nrequire('fs').writeFileSync('greeting.txt', 'hi from node')\n" },
    view: "tools",
  });
  const run = await call(page, "a", "runTool", "bash", { command: "node hello.js", description: "Runs hello.js" });
  expect(run.error).toBeUndefined();
  expect(run.value.status).toBe("completed");
  expect(run.value.output).toContain("hi");
  expect((await call(page, "a", "getFsSnapshot")).value["greeting.txt"]).toBe("hi from node");
});
