/**
 * webfetch against a real local HTTP server, through a tool session on Node: conversion, the 5 MB limit
 * while reading, timeouts, Stop, redirects (10 followed, the 11th refused), images as attachments, and
 * the permission asked with the URL.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { PermissionRequest } from "../../../src/tools/permission/types.js";
import { sessionWith } from "../../support/tool-session.js";
import { PNG_1X1, startWebServer, type WebServer } from "../../support/web-server.js";

const PAGE = `<!doctype html><html><head><title>T</title><style>body{color:red}</style><script>alert("x")</script></head>
<body><!-- a secret comment --><h1>Fruit</h1><p>Apples &amp; <b>pears</b> are <a href="/more">here</a>.</p>
<ul><li>one</li><li>two</li></ul><pre><code>let x = 1;</code></pre><noscript>enable js</noscript></body></html>`;

let site: WebServer;
const slow = new Set<() => void>();

beforeAll(async () => {
  site = await startWebServer({
    "/page": (_q, r) => r.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE),
    "/json": (_q, r) => r.writeHead(200, { "content-type": "application/json" }).end('{"a":1}'),
    "/big": (_q, r) => {
      // 6 MB without a content-length: the limit must be found while reading.
      r.writeHead(200, { "content-type": "text/plain" });
      const chunk = "x".repeat(64 * 1024);
      let sent = 0;
      const pump = () => {
        while (sent < 6 * 1024 * 1024) {
          sent += chunk.length;
          if (!r.write(chunk)) return void r.once("drain", pump);
        }
        r.end();
      };
      pump();
    },
    "/declared-big": (_q, r) => r.writeHead(200, { "content-type": "text/plain", "content-length": String(6 * 1024 * 1024) }).end(),
    "/slow": (_q, r) => {
      r.writeHead(200, { "content-type": "text/plain" });
      r.write("partial");
      const finish = () => r.end("done");
      slow.add(finish);
      r.on("close", () => slow.delete(finish));
    },
    "/image": (_q, r) => r.writeHead(200, { "content-type": "image/png" }).end(PNG_1X1),
    "/missing": (_q, r) => r.writeHead(404, { "content-type": "text/plain" }).end("nope"),
    "/hop": (q, r) => {
      const n = Number(new URL(q.url!, "http://x").searchParams.get("n"));
      if (n === 0) r.writeHead(200, { "content-type": "text/plain" }).end("arrived");
      else r.writeHead(302, { location: `/hop?n=${n - 1}` }).end();
    },
    "/to-file": (_q, r) => r.writeHead(302, { location: "file:///etc/passwd" }).end(),
  });
});
afterAll(() => site.close());

let dispose: (() => Promise<void>) | undefined;
afterEach(async () => {
  await dispose?.();
  dispose = undefined;
});

/**
 * The test site is on 127.0.0.1, which asks even under "allow" (test/security/webfetch-internal-addresses):
 * these sessions allow it by name, as a person testing a local server would.
 */
const LOCAL_SITE_ALLOWED = { permission: { webfetch: { "*": "allow", "(internal) *": "allow" } } };

async function open(config: object = LOCAL_SITE_ALLOWED) {
  const s = await sessionWith({ "opencode.json": JSON.stringify(config) });
  dispose = s.dispose;
  return s.session;
}

describe("webfetch", () => {
  it("turns HTML into markdown without scripts, styles or comments", async () => {
    const session = await open();
    const call = await session.run("webfetch", { url: `${site.url}/page` });
    expect(call.error).toBeUndefined();
    expect(call.title).toBe(`${site.url}/page (text/html; charset=utf-8)`);
    expect(call.output).toContain("# Fruit");
    expect(call.output).toContain("Apples & **pears** are [here](/more).");
    expect(call.output).toContain("-   one");
    expect(call.output).toContain("```\nlet x = 1;\n```");
    for (const gone of ["alert", "color:red", "secret comment", "enable js"]) expect(call.output).not.toContain(gone);
  });

  it("returns plain text and raw HTML when asked", async () => {
    const session = await open();
    const text = await session.run("webfetch", { url: `${site.url}/page`, format: "text" });
    expect(text.output).toContain("Fruit");
    expect(text.output).toContain("Apples & pears are here.");
    expect(text.output).not.toMatch(/[<>*#]/);
    expect(text.output).not.toContain("alert");
    const html = await session.run("webfetch", { url: `${site.url}/page`, format: "html" });
    expect(html.output).toBe(PAGE);
  });

  it("returns non-HTML content as it came", async () => {
    const session = await open();
    const call = await session.run("webfetch", { url: `${site.url}/json` });
    expect(call.output).toBe('{"a":1}');
  });

  it("refuses a body over 5 MB while reading it, and a declared one before", async () => {
    const session = await open();
    const streamed = await session.run("webfetch", { url: `${site.url}/big` });
    expect(streamed.status).toBe("error");
    expect(streamed.error).toBe("Response too large (exceeds 5MB limit)");
    const declared = await session.run("webfetch", { url: `${site.url}/declared-big` });
    expect(declared.error).toBe("Response too large (exceeds 5MB limit)");
  });

  it("gives up after the timeout with an error that says what to do", async () => {
    const session = await open();
    const call = await session.run("webfetch", { url: `${site.url}/slow`, timeout: 0.3 });
    expect(call.status).toBe("error");
    expect(call.error).toContain("timed out after 0.3 s");
  });

  it("ends at once on Stop, while the body is still coming", async () => {
    const session = await open();
    const controller = new AbortController();
    const done = session.run("webfetch", { url: `${site.url}/slow` }, { signal: controller.signal });
    await expect.poll(() => slow.size).toBe(1);
    controller.abort(new Error("stopped by the person"));
    const call = await done;
    expect(call.status).toBe("error");
    expect(call.error).toContain("stopped by the person");
    await expect.poll(() => slow.size).toBe(0);
  });

  it("follows 10 redirects and reports the final URL; refuses the 11th", async () => {
    const session = await open();
    const ten = await session.run("webfetch", { url: `${site.url}/hop?n=10` });
    expect(ten.error).toBeUndefined();
    expect(ten.output).toBe(`(redirected to ${site.url}/hop?n=0)\n\narrived`);
    expect(ten.metadata.url).toBe(`${site.url}/hop?n=0`);
    const eleven = await session.run("webfetch", { url: `${site.url}/hop?n=11` });
    expect(eleven.status).toBe("error");
    expect(eleven.error).toContain("redirected more than 10 times");
  });

  it("does not follow a redirect out of http and https", async () => {
    const session = await open();
    const call = await session.run("webfetch", { url: `${site.url}/to-file` });
    expect(call.error).toContain("which is not fetched: only http and https are");
  });

  it("returns an image as an attachment", async () => {
    const session = await open();
    const call = await session.run("webfetch", { url: `${site.url}/image` });
    expect(call.output).toBe("Image fetched successfully");
    expect(call.attachments).toHaveLength(1);
    expect(call.attachments![0]!.mime).toBe("image/png");
    const data = call.attachments![0]!.url.replace("data:image/png;base64,", "");
    expect(Uint8Array.from(atob(data), (c) => c.charCodeAt(0))).toEqual(PNG_1X1);
  });

  it("reports a failing status, a bad scheme and an unreachable host", async () => {
    const session = await open();
    expect((await session.run("webfetch", { url: `${site.url}/missing` })).error).toBe("Request failed with status code: 404");
    expect((await session.run("webfetch", { url: "ftp://example.com/x" })).error).toBe("URL must start with http:// or https://");
    const closed = await startWebServer({});
    await closed.close();
    const unreachable = await session.run("webfetch", { url: `${closed.url}/x` });
    expect(unreachable.error).toMatch(/^Could not reach 127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
  });

  it("asks the webfetch permission with the URL, and a denial stops the request", async () => {
    const session = await open({ permission: { webfetch: "ask" } });
    const asked: PermissionRequest[] = [];
    session.bus.subscribe("permission.asked", (request) => {
      asked.push(request);
      queueMicrotask(() => session.permissions.reply(request.id, "reject"));
    });
    const before = site.requests.length;
    const call = await session.run("webfetch", { url: `${site.url}/page`, format: "text" });
    expect(call.status).toBe("error");
    expect(asked).toHaveLength(1);
    expect(asked[0]!.permission).toBe("webfetch");
    expect(asked[0]!.patterns).toEqual([`${site.url}/page`, `(internal) ${site.url}/page`]);
    expect(asked[0]!.metadata).toMatchObject({ url: `${site.url}/page`, format: "text" });
    expect(site.requests.length).toBe(before);
  });

  it("sends no cookies even when the site sets one", async () => {
    const session = await open();
    await session.run("webfetch", { url: `${site.url}/page` });
    const last = site.requests[site.requests.length - 1]!;
    expect(last.headers.cookie).toBeUndefined();
    expect(last.headers.authorization).toBeUndefined();
  });
});
