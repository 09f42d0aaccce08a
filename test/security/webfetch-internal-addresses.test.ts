/**
 * Issue 25, item 15: the CLI's webfetch reached loopback and internal addresses (`127.0.0.1`, `0x7f000001`) with no
 * prompt under the default rules, so a prompt-injected model could read a local dev server, a database
 * console or the cloud metadata service. Such an address now asks whatever `webfetch` rules allow, and
 * nothing is fetched when the person refuses; a public address runs as before.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { PermissionRequest } from "../../src/tools/permission/types.js";
import type { WebAccess, WebRequest } from "../../src/tools/ports/web-access.js";
import { sessionWith } from "../support/tool-session.js";

let dispose: (() => Promise<void>) | undefined;
afterEach(async () => {
  await dispose?.();
  dispose = undefined;
});

/** A web from this machine (as the CLI's is) that records every request and answers each with a small page. */
function recordingWeb(fetched: string[]): WebAccess {
  return {
    fromThisMachine: true,
    async fetch(request: WebRequest) {
      fetched.push(request.url);
      return {
        url: request.url,
        via: "direct",
        response: new Response("secret from the local service", { headers: { "content-type": "text/plain" } }),
      };
    },
  };
}

async function attempt(url: string, rules: Record<string, unknown> = {}) {
  const fetched: string[] = [];
  const s = await sessionWith(Object.keys(rules).length > 0 ? { "opencode.json": JSON.stringify({ permission: rules }) } : {}, {
    web: recordingWeb(fetched),
  });
  dispose = s.dispose;
  const asked: PermissionRequest[] = [];
  s.session.bus.subscribe("permission.asked", (request) => {
    asked.push(request);
    queueMicrotask(() => s.session.permissions.reply(request.id, "reject"));
  });
  const call = await s.session.run("webfetch", { url, format: "text" });
  return { call, asked, fetched };
}

const internal = [
  "http://127.0.0.1:9/admin",
  "http://0x7f000001/",
  "http://2130706433/",
  "http://127.1/",
  "http://localhost:3000/",
  "http://app.localhost/",
  "http://[::1]:8080/",
  "http://[::ffff:127.0.0.1]/",
  "http://169.254.169.254/latest/meta-data/",
  "http://10.0.0.1/",
  "http://192.168.1.1/",
  "http://172.16.0.5/",
  "http://0.0.0.0:5432/",
  "http://metadata.google.internal/",
  "http://intranet/",
];

describe("webfetch of this machine or a private network asks", () => {
  it.each(internal)("%s asks, and fetches nothing when refused", async (url) => {
    const { call, asked, fetched } = await attempt(url);
    expect(asked.map((r) => r.permission)).toEqual(["webfetch"]);
    expect(asked[0]!.patterns.some((p) => p.startsWith("(internal) "))).toBe(true);
    expect(call.status).toBe("error");
    expect(fetched).toEqual([]);
  });

  it("asks even when the config allows every webfetch", async () => {
    const { asked, fetched } = await attempt("http://127.0.0.1:9/", { webfetch: "allow" });
    expect(asked).toHaveLength(1);
    expect(fetched).toEqual([]);
  });

  it("runs unasked when the config names internal addresses", async () => {
    const { call, asked, fetched } = await attempt("http://127.0.0.1:9/", { webfetch: { "*": "allow", "(internal) *": "allow" } });
    expect(asked).toEqual([]);
    expect(call.status).toBe("completed");
    expect(fetched).toEqual(["http://127.0.0.1:9/"]);
  });

  it.each(["https://example.com/", "http://93.184.216.34/", "https://[2606:2800:220:1::]/", "http://172.32.0.1/"])(
    "control: the public %s runs unasked",
    async (url) => {
      const { call, asked, fetched } = await attempt(url);
      expect(asked).toEqual([]);
      expect(call.status).toBe("completed");
      expect(fetched).toEqual([url]);
    },
  );
});
