import { callCard, expect, freshWorkspace, openWorkbench, runInTerminal, runTool, test, waitForIdle } from "./fixtures.js";
import { frame, openPreview, packageFiles, upload } from "./preview-support.js";
import { encodeShareLink } from "../src/embed/share/index.js";

const PLAIN = {
  "site/index.html": `<!doctype html>
<html>
  <head>
    <title>Plain site</title>
    <link rel="stylesheet" href="style.css" />
  </head>
  <body>
    <h1 id="title">Loading</h1>
    <p id="data"></p>
    <img id="dot" src="dot.svg" alt="dot" />
    <a id="about" href="about.html">About</a>
    <script type="module" src="./main.js"></script>
  </body>
</html>
`,
  "site/style.css": "h1 { color: rgb(10, 20, 30); }\n",
  "site/dot.svg": '<svg xmlns="http://www.w3.org/2000/svg" width="7" height="7"><rect width="7" height="7"/></svg>\n',
  "site/util.js": 'export const greeting = "Hello from util";\n',
  "site/data.json": '{ "items": [1, 2, 3] }\n',
  "site/about.html": "<!doctype html><title>About</title><h1>About page</h1>\n",
  "site/main.js": `import { greeting } from "./util.js";
document.getElementById("title").textContent = greeting;
console.log("main started", 42);
fetch("data.json").then((r) => r.json()).then((d) => {
  document.getElementById("data").textContent = "items: " + d.items.length;
});
console.warn("careful");
setTimeout(() => {
  throw new Error("boom from main");
}, 0);
`,
};

test("a plain HTML/JS app runs in the preview: modules, CSS, assets, fetch, links, console and errors with their source lines", async ({
  page,
}) => {
  await openWorkbench(page, freshWorkspace("preview-plain"));
  await upload(page, PLAIN);
  await openPreview(page, "/site/index.html");
  await expect(frame(page).locator("#title")).toHaveText("Hello from util");
  await expect(frame(page).locator("#data")).toHaveText("items: 3");
  await expect(frame(page).locator("#title")).toHaveCSS("color", "rgb(10, 20, 30)");
  await expect
    .poll(() =>
      frame(page)
        .locator("#dot")
        .evaluate((img: HTMLImageElement) => img.naturalWidth),
    )
    .toBe(7);

  const lines = page.getByTestId("preview-line");
  await expect(lines.filter({ hasText: "main started 42" })).toContainText("site/main.js:3");
  await expect(lines.filter({ hasText: "careful" })).toHaveAttribute("data-kind", "warn");
  await expect(lines.filter({ hasText: "boom from main" })).toContainText("site/main.js:9");

  // A link within the app is a navigation of the preview: the address bar follows, and back returns.
  await frame(page).locator("#about").click();
  await expect(frame(page).locator("h1")).toHaveText("About page");
  await expect(page.getByTestId("preview-address")).toHaveValue("/site/about.html");
  await page.getByTestId("preview-back").click();
  await expect(frame(page).locator("#title")).toHaveText("Hello from util");
  await expect(page.getByTestId("preview-address")).toHaveValue("/site/index.html");
  await page.getByTestId("preview-forward").click();
  await expect(frame(page).locator("h1")).toHaveText("About page");
  await page.getByTestId("preview-back").click();
  await expect(frame(page).locator("#title")).toHaveText("Hello from util");

  // "Open in a new tab": the same app, in the same kind of sandboxed frame, in a tab of its own.
  const [tab] = await Promise.all([page.context().waitForEvent("page"), page.getByTestId("preview-open-tab").click()]);
  const inner = tab.frameLocator("iframe");
  await expect(inner.locator("#title")).toHaveText("Hello from util");
  expect(await tab.locator("iframe").getAttribute("sandbox")).not.toContain("allow-same-origin");
  await tab.close();
});

test("a change to a file the page loaded reloads it, from the shell as from a tool", async ({ page }) => {
  await openWorkbench(page, freshWorkspace("preview-live"));
  await upload(page, PLAIN);
  await openPreview(page, "/site/index.html");
  await expect(frame(page).locator("#title")).toHaveText("Hello from util");
  await page.getByTestId("tab-terminal").click();
  await runInTerminal(page, `echo 'export const greeting = "Edited in the shell";' > site/util.js`);
  await waitForIdle(page);
  await page.getByTestId("tab-preview").click();
  await expect(frame(page).locator("#title")).toHaveText("Edited in the shell");
  // A file the page fetched counts too.
  await page.getByTestId("tab-terminal").click();
  await runInTerminal(page, `echo '{ "items": [1] }' > site/data.json`);
  await waitForIdle(page);
  await page.getByTestId("tab-preview").click();
  await expect(frame(page).locator("#data")).toHaveText("items: 1");
  // A tool's write, too (the call brings nothing forward: the Preview tab is already in front).
  await runTool(page, "read", { filePath: "site/util.js" });
  await expect(callCard(page, 0)).toHaveAttribute("data-state", "completed");
  await runTool(page, "write", { filePath: "site/util.js", content: 'export const greeting = "Written by a tool";\n' });
  await expect(frame(page).locator("#title")).toHaveText("Written by a tool");
});

test("the preview tool returns the page's title, text, console lines and errors with source positions", async ({ page }) => {
  await openWorkbench(page, freshWorkspace("preview-tool"));
  await upload(page, PLAIN);
  await runTool(page, "preview", { path: "site/index.html", waitMs: "500" });
  const card = callCard(page, 0);
  await expect(card).toHaveAttribute("data-state", "completed", { timeout: 20_000 });
  await expect(card).toContainText("Title: Plain site");
  await expect(card).toContainText("Uncaught Error: boom from main (site/main.js:9:");
  await expect(card).toContainText("[log] main started 42 (site/main.js:3:");
  await expect(card).toContainText("[warn] careful (site/main.js:7:");
  await expect(card).toContainText("Hello from util");
  // A screenshot of the page as drawn goes with the text: a PNG in which the heading's dark ink shows.
  await expect(card).toContainText("Screenshot: attached");
  const shot = card.getByTestId("attachment-image");
  await expect(shot).toHaveAttribute("src", /^data:image\/png;base64,/);
  const drawn = await shot.evaluate(async (image: HTMLImageElement) => {
    await image.decode();
    const canvas = document.createElement("canvas");
    canvas.width = image.naturalWidth;
    canvas.height = image.naturalHeight;
    const context = canvas.getContext("2d")!;
    context.drawImage(image, 0, 0);
    const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
    let ink = 0;
    for (let i = 0; i < pixels.length; i += 4)
      if (Math.abs(pixels[i]! - 10) < 40 && Math.abs(pixels[i + 1]! - 20) < 40 && Math.abs(pixels[i + 2]! - 30) < 40) ink++;
    return { width: image.naturalWidth, height: image.naturalHeight, ink };
  });
  expect(drawn.width).toBeGreaterThan(100);
  expect(drawn.height).toBeGreaterThan(50);
  expect(drawn.ink).toBeGreaterThan(20);
  // The tool brought the Preview tab forward.
  await expect(page.getByTestId("tab-preview")).toHaveAttribute("aria-selected", "true");
});

test("a React + TypeScript app laid out as a Vite template runs with react and react-dom from npm tarballs", async ({ page }) => {
  await openWorkbench(page, freshWorkspace("preview-react"));
  const files: Record<string, Uint8Array | string> = {
    ...(await packageFiles("react-18.3.1.tgz", "app/node_modules/react")),
    ...(await packageFiles("react-dom-18.3.1.tgz", "app/node_modules/react-dom")),
    ...(await packageFiles("scheduler-0.23.2.tgz", "app/node_modules/scheduler")),
    "app/package.json": JSON.stringify({
      name: "app",
      private: true,
      type: "module",
      dependencies: { react: "^18.3.1", "react-dom": "^18.3.1" },
    }),
    "app/index.html": `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <link rel="icon" type="image/svg+xml" href="/vite.svg" />
    <title>Vite + React + TS</title>
  </head>
  <body>
    <div id="root"></div>
    <script type="module" src="/src/main.tsx"></script>
  </body>
</html>
`,
    "app/public/vite.svg": '<svg xmlns="http://www.w3.org/2000/svg" width="12" height="12"><circle cx="6" cy="6" r="6"/></svg>\n',
    "app/src/main.tsx": `import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import "./index.css";
import App from "./App.tsx";

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
`,
    "app/src/index.css": "h1 { color: rgb(97, 218, 251); }\n",
    "app/src/App.tsx": `import { useState } from "react";
import viteLogo from "/vite.svg";
import type { Item } from "./types";
import items from "./items.json";

export default function App() {
  const [count, setCount] = useState<number>(0);
  const list: Item[] = items;
  if (count === 3) throw new Error("three is too many");
  return (
    <>
      <img src={viteLogo} className="logo" alt="Vite logo" />
      <h1>Vite + React</h1>
      <button onClick={() => setCount((count) => count + 1)}>count is {count}</button>
      <ul>{list.map((item) => <li key={item.id}>{item.name}</li>)}</ul>
    </>
  );
}
`,
    "app/src/types.ts": "export interface Item {\n  id: number;\n  name: string;\n}\n",
    "app/src/items.json": '[{ "id": 1, "name": "first" }, { "id": 2, "name": "second" }]\n',
  };
  await upload(page, files);
  await openPreview(page, "/app/");
  await expect(frame(page).locator("h1")).toHaveText("Vite + React", { timeout: 20_000 });
  await expect(frame(page).locator("h1")).toHaveCSS("color", "rgb(97, 218, 251)");
  await expect(frame(page).locator("li")).toHaveText(["first", "second"]);
  const button = frame(page).getByRole("button");
  await button.click();
  await expect(button).toHaveText("count is 1");
  await page.screenshot({ path: test.info().outputPath("preview-react.png") });
  await button.click();
  await button.click();
  // The throw in render reaches the console with the TSX file's own line.
  await expect(page.getByTestId("preview-line").filter({ hasText: "three is too many" }).first()).toContainText("app/src/App.tsx:9");
});

test("an app cannot read the workbench's storage or script its window", async ({ page }) => {
  await openWorkbench(page, freshWorkspace("preview-attack"));
  await page.evaluate(() => window.localStorage.setItem("workbench-secret-probe", "do-not-leak"));
  const attack = `<!doctype html><title>Attack</title><body><script>
function attempt(name, fn) {
  try { const value = fn(); console.log(name + ": READ " + String(value)); }
  catch (error) { console.log(name + ": refused " + error.name); }
}
attempt("localStorage", () => localStorage.getItem("workbench-secret-probe"));
attempt("cookie", () => document.cookie);
attempt("parent document", () => parent.document.title);
attempt("parent storage", () => parent.localStorage.getItem("workbench-secret-probe"));
attempt("top location", () => top.location.href);
attempt("opener", () => { if (window.opener === null) throw { name: "NoOpener" }; return window.opener.document.title; });
try {
  const request = indexedDB.open("workbench-sessions");
  request.onsuccess = () => console.log("indexedDB: READ");
  request.onerror = () => console.log("indexedDB: refused " + (request.error && request.error.name));
} catch (error) { console.log("indexedDB: refused " + error.name); }
try { top.location.href = "https://example.invalid/"; console.log("navigate top: DONE"); } catch (error) { console.log("navigate top: refused " + error.name); }
fetch("..%2F..%2F..%2Fetc%2Fpasswd").then((r) => console.log("climb: status " + r.status));
fetch("../.env").then((r) => r.text().then((t) => console.log("env: status " + r.status + " " + t.slice(0, 40))));
</script></body>`;
  await upload(page, { "evil/index.html": attack, ".env": "API_KEY=sk-secret-value\n" });
  await openPreview(page, "/evil/index.html");
  const lines = page.getByTestId("preview-line");
  for (const name of ["localStorage", "cookie", "parent document", "parent storage", "top location", "indexedDB", "navigate top"]) {
    await expect(lines.filter({ hasText: `${name}:` })).toContainText(`${name}: refused`);
  }
  await expect(lines.filter({ hasText: "env:" })).toContainText("env: status 404");
  await expect(lines.filter({ hasText: "climb:" })).toContainText("climb: status 404");
  await expect(page.getByTestId("preview-console")).not.toContainText("READ");
  await expect(page.getByTestId("preview-console")).not.toContainText("sk-secret-value");
  // The workbench is where it was, its storage untouched.
  expect(await page.evaluate(() => window.localStorage.getItem("workbench-secret-probe"))).toBe("do-not-leak");
  expect(new URL(page.url()).hostname).toBe("127.0.0.1");
  expect(await page.getByTestId("preview-frame").getAttribute("sandbox")).not.toContain("allow-same-origin");
});

test("a share link can open on the preview of its files", async ({ page, baseURL }) => {
  const link = await encodeShareLink(
    { name: "Preview demo", files: { ...PLAIN }, view: { panes: ["preview"], preview: "/site/index.html" } },
    `${baseURL}/`,
  );
  await page.addInitScript(() => window.localStorage.setItem("workbench-welcome-dismissed", "1"));
  await page.goto(link);
  await expect(page).toHaveURL(/preview=%2Fsite%2Findex\.html/);
  await expect(page.getByTestId("tab-preview")).toHaveAttribute("aria-selected", "true");
  await expect(frame(page).locator("#title")).toHaveText("Hello from util", { timeout: 20_000 });
});
