/**
 * The share scrub (keys and approvals out of a config) against the ways round it: a key given twice (the
 * scrub read the first, the config loader reads the last), keys below a model (`headers`, `options.apiKey`,
 * a variant's), legacy `tools: { "bash": true }` switches (each is an allow rule), a config sent as bytes
 * (a NUL in a comment) so the scrub skipped it. The oracle is jsonc-parser's `parse`, which the workspace's
 * config loader uses: what it reads from the opened share holds no allow, no `true` switch and no secret.
 */
import { deflateSync, strToU8 } from "fflate";
import { parse } from "jsonc-parser";
import { describe, expect, it } from "vitest";
import { toBase64Url } from "../../src/embed/share/base64url.js";
import { inflateCapped } from "../../src/embed/share/inflate.js";
import { decodeShareLink, encodeShareLink, fromShareFile } from "../../src/embed/share/index.js";
import { pack } from "../../src/embed/share/pack.js";

const BASE = "http://127.0.0.1:5173/";

function rawLink(files: Record<string, string | Uint8Array>, config?: string): string {
  return `${BASE}#share=1.${toBase64Url(deflateSync(pack({ files, ...(config !== undefined ? { config } : {}) }), { level: 9 }))}`;
}

/** Every value the loader would read from the opened share's configs, flattened to `path=value` lines. */
function loaderView(files: Record<string, string | Uint8Array>, config?: string): string[] {
  const texts = [
    ...Object.entries(files).filter(([path]) => /opencode\.jsonc?$/.test(path)),
    ...(config ? [["opencode.json", config]] : []),
  ];
  const out: string[] = [];
  const walk = (value: unknown, at: string) => {
    if (typeof value === "object" && value !== null)
      for (const [key, child] of Object.entries(value)) walk(child, at ? `${at}.${key}` : key);
    else out.push(`${at}=${String(value)}`);
  };
  for (const [, text] of texts)
    walk(parse(typeof text === "string" ? text : new TextDecoder().decode(text), [], { allowTrailingComma: true }), "");
  return out;
}

const grants = (lines: string[]) =>
  lines.filter((line) => /=(allow|true)$/.test(line) && !/^(?:.*\.)?(?:experimental|workbench)\./.test(line));
const secrets = (lines: string[]) => lines.filter((line) => /SECRET/.test(line));

describe("a config giving a key twice is refused", () => {
  it.each([
    ["permission twice", '{"permission":{"bash":"ask"},"permission":{"bash":"allow"}}'],
    ["a rule twice", '{"permission":{"bash":{"*":"ask","*":"allow"}}}'],
    ["options twice", '{"provider":{"openai":{"options":{"baseURL":"https://api.openai.com/v1"},"options":{"apiKey":"SECRET"}}}}'],
    ["agent twice, in JSONC", '{\n  // comment\n  "agent": {"plan": {}}, "agent": {"plan": {"permission": {"edit": "allow"}}},\n}'],
  ])("%s: the old scrub let the loader see an allow or a key", async (_, config) => {
    for (const link of [rawLink({ "opencode.json": config }), rawLink({ "sub/.opencode/opencode.jsonc": config }), rawLink({}, config)]) {
      const result = await decodeShareLink(link);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error).toMatch(/twice; a config with a key given twice is refused/);
    }
    const file = fromShareFile(JSON.stringify({ format: "workbench-share", version: 1, files: [{ path: "opencode.json", text: config }] }));
    expect(file.ok).toBe(false);
  });

  it("the same key in different objects is fine", async () => {
    const config = '{"agent":{"a":{"permission":{"bash":"ask"}},"b":{"permission":{"bash":"deny"}}}}';
    expect((await decodeShareLink(rawLink({ "opencode.json": config }))).ok).toBe(true);
  });
});

describe("keys and allows below the top are scrubbed", () => {
  const config = JSON.stringify({
    provider: {
      openai: {
        options: { baseURL: "https://api.openai.com/v1", apiKey: "SECRET-1" },
        models: {
          "gpt-x": {
            headers: { Authorization: "Bearer SECRET-2" },
            options: { apiKey: "SECRET-3", reasoningEffort: "high" },
            variants: { fast: { api_key: "SECRET-4", temperature: 0 } },
          },
        },
      },
      bedrock: { options: { accessKeyId: "SECRET-5", secretAccessKey: "SECRET-6", sessionToken: "SECRET-7", region: "eu-west-1" } },
    },
    mcp: { docs: { type: "remote", url: "https://mcp.example/", headers: { "X-Token": "SECRET-8" }, oauth: { clientSecret: "SECRET-9" } } },
    tools: { bash: true, webfetch: false },
    agent: { build: { tools: { edit: true, bash: false }, options: { token: "SECRET-10" } } },
    mode: { old: { tools: { bash: true }, permission: { bash: "allow" } } },
  });

  it("a hand-made link: the loader sees no key and no grant; what is not a key stays", async () => {
    const result = await decodeShareLink(rawLink({ "opencode.json": config }));
    if (!result.ok) throw new Error(result.error);
    const view = loaderView(result.state.files);
    expect(secrets(view)).toEqual([]);
    expect(grants(view)).toEqual([]);
    expect(view).toEqual(
      expect.arrayContaining([
        "provider.openai.options.baseURL=https://api.openai.com/v1",
        "provider.openai.models.gpt-x.options.reasoningEffort=high",
        "provider.bedrock.options.region=eu-west-1",
        "tools.webfetch=false",
        "agent.build.tools.bash=false",
        "mcp.docs.url=https://mcp.example/",
      ]),
    );
  });

  it("the author's link carries no key, not even in its compressed bytes", async () => {
    const link = await encodeShareLink({ files: { "opencode.json": config, "a.txt": "A" } }, BASE);
    const payload = link.slice(link.indexOf("#share=1.") + 9);
    const raw = Uint8Array.from(atob(payload.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
    expect(new TextDecoder().decode(inflateCapped(raw, 1 << 20))).not.toMatch(/SECRET/);
  });

  it("a config sent as bytes (a NUL in a comment) is refused instead of skipping the scrub", async () => {
    const text = `{"permission":{"bash":"allow"}} // \u0000`;
    const bytes = strToU8(text);
    expect(grants(loaderView({ "opencode.json": bytes }))).toEqual(["permission.bash=allow"]);
    const result = await decodeShareLink(rawLink({ "opencode.json": bytes }));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/not text; a config must be UTF-8 text/);
  });
});
