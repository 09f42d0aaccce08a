/**
 * Issue 25 (after item 15): the CLI's webfetch judged only the host name it was given, so a public page
 * could lead it into this machine or a private network by a redirect (to `127.0.0.1`, `0x7f000001`,
 * `[::1]`, `169.254.169.254`, `localhost`) or by a DNS answer (a public-looking name answering 127.0.0.1,
 * or answering public when checked and internal when connected: DNS rebinding). Now every hop and every
 * answer is judged where the socket connects, and nothing internal is reached unless the call was for an
 * internal address in the first place (which asks).
 *
 * The "public" site is a real server on 127.0.0.2 that the judge here calls public (the only change to
 * the real judge); the secret service is a real server on 127.0.0.1 (and on [::1] where the machine has
 * it) that counts every request it gets.
 */
import { lookup as dnsLookup } from "node:dns";
import { createServer, type Server } from "node:http";
import type { AddressInfo, LookupFunction } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { nodeWebAccess } from "../../src/session/host/node-web.js";
import { internalIp } from "../../src/tools/web/internal-address.js";
import { sessionWith } from "../support/tool-session.js";

const PUBLIC_IP = "127.0.0.2";
const SECRET = "secret of the local service";

interface Site {
  server: Server;
  port: number;
  hits: number;
}

async function site(
  host: string,
  handle: (path: string, site: Site) => { status: number; location?: string; body?: string },
): Promise<Site | null> {
  const made: Site = { server: createServer(), port: 0, hits: 0 };
  made.server.on("request", (request, response) => {
    made.hits++;
    const answer = handle(new URL(request.url ?? "/", "http://x").pathname + (new URL(request.url ?? "/", "http://x").search ?? ""), made);
    response.writeHead(answer.status, { "content-type": "text/plain", ...(answer.location ? { location: answer.location } : {}) });
    response.end(answer.body ?? "");
  });
  const listening = await new Promise<boolean>((resolve) => {
    made.server.once("error", () => resolve(false));
    made.server.listen(0, host, () => resolve(true));
  });
  if (!listening) return null;
  made.port = (made.server.address() as AddressInfo).port;
  return made;
}

let secret: Site;
let secret6: Site | null;
let publicSite: Site;

beforeAll(async () => {
  secret = (await site("127.0.0.1", () => ({ status: 200, body: SECRET })))!;
  secret6 = await site("::1", () => ({ status: 200, body: SECRET }));
  // /to?<url> redirects there; anything else is a public page.
  publicSite = (await site(PUBLIC_IP, (path) =>
    path.startsWith("/to?") ? { status: 302, location: decodeURIComponent(path.slice(4)) } : { status: 200, body: "public page" },
  ))!;
});
afterAll(async () => {
  for (const s of [secret, secret6, publicSite]) if (s) await new Promise((resolve) => s.server.close(resolve));
});

/** Names of this test's "internet": each answers as the table says (a list: one answer per lookup, the last repeating). */
function lookupFrom(table: Record<string, string[]>): LookupFunction {
  const asked: Record<string, number> = {};
  return (hostname, options, callback) => {
    const answers = table[hostname];
    if (!answers) return dnsLookup(hostname, options, callback);
    const n = asked[hostname] ?? 0;
    asked[hostname] = n + 1;
    const address = answers[Math.min(n, answers.length - 1)]!;
    const family = address.includes(":") ? 6 : 4;
    if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: unknown) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

const judge = (ip: string) => (ip === PUBLIC_IP ? null : internalIp(ip));

let dispose: (() => Promise<void>) | undefined;
afterEach(async () => {
  await dispose?.();
  dispose = undefined;
});

async function webfetch(url: string, names: Record<string, string[]> = {}, judgeOf: (ip: string) => string | null = judge) {
  const table = { "www.example.test": [PUBLIC_IP], ...names };
  const s = await sessionWith(
    { "opencode.json": JSON.stringify({ permission: { webfetch: "allow" } }) },
    { web: nodeWebAccess({ lookup: lookupFrom(table), internalIp: judgeOf }) },
  );
  dispose = s.dispose;
  const asked: string[] = [];
  s.session.bus.subscribe("permission.asked", (request) => {
    asked.push(request.permission);
    queueMicrotask(() => s.session.permissions.reply(request.id, "once"));
  });
  const call = await s.session.run("webfetch", { url, format: "text" });
  return { call, asked };
}

const from = (target: string) => `http://www.example.test:${publicSite.port}/to?${encodeURIComponent(target)}`;

describe("webfetch from this machine: redirects and DNS answers into it", () => {
  it("control: the public site is fetched, and a redirect within it is followed", async () => {
    const { call, asked } = await webfetch(from(`http://www.example.test:${publicSite.port}/page`));
    expect(asked).toEqual([]);
    expect(call.status).toBe("completed");
    expect(call.output).toContain("public page");
  });

  it("control: the secret service is really there, for a call that names it (and asks)", async () => {
    const before = secret.hits;
    const { call, asked } = await webfetch(`http://127.0.0.1:${secret.port}/`);
    expect(asked).toEqual(["webfetch"]);
    expect(call.output).toContain(SECRET);
    expect(secret.hits).toBe(before + 1);
  });

  const redirects = () => [
    `http://127.0.0.1:${secret.port}/`,
    `http://0x7f000001:${secret.port}/`,
    `http://2130706433:${secret.port}/`,
    `http://localhost:${secret.port}/`,
    `http://localhost.:${secret.port}/`,
    `http://[::ffff:127.0.0.1]:${secret.port}/`,
    "http://169.254.169.254/latest/meta-data/",
    "http://10.0.0.1/",
    ...(secret6 ? [`http://[::1]:${secret6.port}/`] : []),
  ];

  it("a redirect from a public page to an internal address is refused, and nothing reaches the service", async () => {
    for (const target of redirects()) {
      const before = secret.hits + (secret6?.hits ?? 0);
      const { call } = await webfetch(from(target));
      expect(call.status, target).toBe("error");
      expect(call.error, target).toMatch(/redirected to .*: a redirect from a public address is not followed into this machine/);
      expect(call.error, target).toContain("fetch ");
      expect(secret.hits + (secret6?.hits ?? 0), target).toBe(before);
    }
  });

  it("the attack is real: were every address public, the redirect and the DNS answer would reach the service", async () => {
    const before = secret.hits;
    const redirected = await webfetch(from(`http://127.0.0.1:${secret.port}/`), {}, () => null);
    expect(redirected.call.output).toContain(SECRET);
    const resolved = await webfetch(`http://app.example.test:${secret.port}/`, { "app.example.test": ["127.0.0.1"] }, () => null);
    expect(resolved.call.output).toContain(SECRET);
    expect(secret.hits).toBe(before + 2);
  });

  it("a redirect to a public-looking name that answers with an internal address is refused at connect", async () => {
    const before = secret.hits;
    const { call } = await webfetch(from(`http://inside.example.test:${secret.port}/`), { "inside.example.test": ["127.0.0.1"] });
    expect(call.status).toBe("error");
    expect(call.error).toMatch(/inside\.example\.test resolves to 127\.0\.0\.1, a loopback address/);
    expect(secret.hits).toBe(before);
  });

  it("a public-looking name that answers with an internal address is refused, whatever the rules allow", async () => {
    for (const address of ["127.0.0.1", "::ffff:127.0.0.1", "169.254.169.254", ...(secret6 ? ["::1"] : [])]) {
      const before = secret.hits + (secret6?.hits ?? 0);
      const port = address === "::1" ? secret6!.port : secret.port;
      const { call, asked } = await webfetch(`http://app.example.test:${port}/`, { "app.example.test": [address] });
      expect(asked, address).toEqual([]);
      expect(call.status, address).toBe("error");
      expect(call.error, address).toContain(`app.example.test resolves to ${address}`);
      expect(secret.hits + (secret6?.hits ?? 0), address).toBe(before);
    }
  });

  it("DNS rebinding: a name answering public when first asked and internal afterwards never reaches the service", async () => {
    const before = secret.hits;
    // Served on the secret service's port on both addresses: public first (nothing listens on 127.0.0.2
    // at that port, so the checked answer fails to connect), then internal.
    const { call } = await webfetch(`http://flip.example.test:${secret.port}/`, { "flip.example.test": [PUBLIC_IP, "127.0.0.1"] });
    expect(call.status).toBe("error");
    expect(secret.hits).toBe(before);
  });
});
