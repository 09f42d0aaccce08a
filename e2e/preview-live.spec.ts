import type { Page } from "@playwright/test";
import { callCard, expect, freshWorkspace, openWorkbench, runInTerminal, runTool, test, waitForIdle } from "./fixtures.js";
import { frame, openPreview, packageFiles, upload } from "./preview-support.js";

const app = (heading: string) => `import { useState } from "react";
import { label } from "./label";

export default function App() {
  const [count, setCount] = useState(0);
  return (
    <>
      <h1>${heading}</h1>
      <p id="label">{label}</p>
      <button onClick={() => setCount((n) => n + 1)}>count is {count}</button>
    </>
  );
}
`;

async function reactApp(): Promise<Record<string, Uint8Array | string>> {
  return {
    ...(await packageFiles("react-18.3.1.tgz", "app/node_modules/react")),
    ...(await packageFiles("react-dom-18.3.1.tgz", "app/node_modules/react-dom")),
    ...(await packageFiles("scheduler-0.23.2.tgz", "app/node_modules/scheduler")),
    "app/package.json": JSON.stringify({ name: "app", private: true, type: "module" }),
    "app/index.html": '<!doctype html><title>Live</title><div id="root"></div><script type="module" src="/src/main.tsx"></script>\n',
    "app/src/main.tsx": `import { createRoot } from "react-dom/client";
import "./index.css";
import App from "./App";

createRoot(document.getElementById("root")!).render(<App />);
`,
    "app/src/index.css": "h1 { color: rgb(10, 20, 30); }\n",
    "app/src/App.tsx": app("First version"),
    "app/src/label.ts": 'export const label = "label-0";\n',
  };
}

/** A mark on the frame's window: it survives a hot update and is gone after a reload of the document. */
async function markFrame(page: Page): Promise<void> {
  await frame(page)
    .locator("body")
    .evaluate(() => Object.assign(window, { wbSameDocument: true }));
}
function sameDocument(page: Page): Promise<boolean> {
  return frame(page)
    .locator("body")
    .evaluate(() => (window as unknown as { wbSameDocument?: boolean }).wbSameDocument === true);
}

async function writeApp(page: Page, content: string, card: number): Promise<void> {
  // A click in the app leaves the keys with the frame: the palette's shortcut belongs to the workbench.
  await page.getByTestId("tab-preview").focus();
  await runTool(page, "write", { filePath: "app/src/App.tsx", content });
  await expect(callCard(page, card)).toHaveAttribute("data-state", "completed");
}

test("an edit to a React app's module shows up without reloading the page; a syntax error shows, and the fix recovers", async ({
  page,
}) => {
  await openWorkbench(page, freshWorkspace("preview-hot"));
  await upload(page, await reactApp());
  await openPreview(page, "/app/");
  await expect(frame(page).locator("h1")).toHaveText("First version", { timeout: 20_000 });
  await runTool(page, "read", { filePath: "app/src/App.tsx" });
  await expect(callCard(page, 0)).toHaveAttribute("data-state", "completed");
  await markFrame(page);
  const button = frame(page).getByRole("button");
  await button.click();
  await expect(button).toHaveText("count is 1");

  // A tool's edit: the heading changes in the same document (react-dom is not run again); state starts over.
  await writeApp(page, app("Second version"), 1);
  await expect(frame(page).locator("h1")).toHaveText("Second version");
  await expect(button).toHaveText("count is 0");
  expect(await sameDocument(page)).toBe(true);
  await expect(frame(page).locator("#root > h1")).toHaveCount(1);

  // A syntax error: the page stays as it was, the error is shown with the file; the fix brings the new version.
  await writeApp(page, app("Broken version").replace("</h1>", "</h1"), 2);
  await expect(page.getByTestId("preview-failure")).toContainText("app/src/App.tsx");
  await expect(page.getByTestId("preview-failure")).toContainText(/App\.tsx: Unexpected token[^:]*\(\d+:\d+\)$/);
  await expect(page.getByTestId("preview-line").filter({ hasText: "Build error" })).toContainText("App.tsx");
  await expect(frame(page).locator("h1")).toHaveText("Second version");
  await page.screenshot({ path: test.info().outputPath("preview-syntax-error.png") });
  await writeApp(page, app("Fixed version"), 3);
  await expect(frame(page).locator("h1")).toHaveText("Fixed version");
  await expect(page.getByTestId("preview-failure")).toBeHidden();
  await expect(page.getByTestId("preview-line").filter({ hasText: "Build error" })).toHaveCount(0);
  expect(await sameDocument(page)).toBe(true);
  // "Open in a new tab" opens the version on screen, not the one the frame was first loaded with.
  const [tab] = await Promise.all([page.context().waitForEvent("page"), page.getByTestId("preview-open-tab").click()]);
  await expect(tab.frameLocator("iframe").locator("h1")).toHaveText("Fixed version", { timeout: 20_000 });
  await tab.close();
  await button.click();
  await expect(button).toHaveText("count is 1");

  // A style sheet the app imports, edited in the shell: the new rule replaces the old one.
  await page.getByTestId("tab-terminal").click();
  await runInTerminal(page, `echo 'h1 { color: rgb(200, 0, 0); }' > app/src/index.css`);
  await waitForIdle(page);
  await page.getByTestId("tab-preview").click();
  await expect(frame(page).locator("h1")).toHaveCSS("color", "rgb(200, 0, 0)");
  await expect(frame(page).locator("style")).toHaveCount(1);
  expect(await sameDocument(page)).toBe(true);
  await page.screenshot({ path: test.info().outputPath("preview-hot.png") });

  // A burst of edits, each its own update (30 ms apart, past the 10 ms of quiet): the last one is what shows.
  await page.getByTestId("tab-terminal").click();
  await runInTerminal(page, `for i in 1 2 3 4 5 6; do echo "export const label = 'label-$i';" > app/src/label.ts; sleep 0.03; done`);
  await waitForIdle(page);
  await page.getByTestId("tab-preview").click();
  await expect(frame(page).locator("#label")).toHaveText("label-6");
  expect(await sameDocument(page)).toBe(true);
  await expect(page.getByTestId("preview-console")).toContainText("0 errors");

  // The page's HTML cannot be updated in place: the document is loaded again.
  await page.getByTestId("tab-terminal").click();
  await runInTerminal(
    page,
    `echo '<!doctype html><title>Live</title><p id="note">reloaded</p><div id="root"></div><script type="module" src="/src/main.tsx"></script>' > app/index.html`,
  );
  await waitForIdle(page);
  await page.getByTestId("tab-preview").click();
  await expect(frame(page).locator("#note")).toHaveText("reloaded");
  await expect(frame(page).locator("h1")).toHaveText("Fixed version");
  expect(await sameDocument(page)).toBe(false);

  // After a reload, hot updates go on.
  await markFrame(page);
  await writeApp(page, app("After the reload"), 4);
  await expect(frame(page).locator("h1")).toHaveText("After the reload");
  expect(await sameDocument(page)).toBe(true);
});

test("an edit that throws when the module runs shows the error with its line; the page reloads on the next edit", async ({ page }) => {
  await openWorkbench(page, freshWorkspace("preview-hot-throw"));
  await upload(page, await reactApp());
  await openPreview(page, "/app/");
  await expect(frame(page).locator("h1")).toHaveText("First version", { timeout: 20_000 });
  await runTool(page, "read", { filePath: "app/src/App.tsx" });
  await expect(callCard(page, 0)).toHaveAttribute("data-state", "completed");
  // Line 2 throws as the module is evaluated: the page keeps what it showed.
  await writeApp(
    page,
    `import { useState } from "react";\nthrow new Error("thrown at load");\n${app("Never shown").split("\n").slice(1).join("\n")}`,
    1,
  );
  await expect(page.getByTestId("preview-line").filter({ hasText: "thrown at load" })).toContainText("app/src/App.tsx:2");
  await expect(frame(page).locator("h1")).toHaveText("First version");
  await markFrame(page);
  await writeApp(page, app("Recovered"), 2);
  await expect(frame(page).locator("h1")).toHaveText("Recovered");
  // A failed update may have left a module half made in the frame: the page is loaded afresh.
  expect(await sameDocument(page)).toBe(false);
  await expect(page.getByTestId("preview-line").filter({ hasText: "thrown at load" })).toHaveCount(0);
});
