/**
 * Whether a URL's host is this machine or a private network: loopback (`127.0.0.1`, written any way the
 * URL parser accepts, such as `0x7f000001` or `127.1`; `[::1]`; `localhost`), private and link-local ranges
 * (`10.x`, `192.168.x`, `169.254.169.254`, the cloud metadata address), and names only a local network
 * resolves (`intranet`, `*.internal`, `*.local`). A webfetch there reaches services that trust whoever is
 * on the machine (a dev server, a database console, a router), so it asks whatever the rules allow
 * (./permission/unresolved.ts: INTERNAL). A public name whose DNS answer is internal, and redirects, are
 * judged where the CLI connects (src/session/host/node-web.ts, with internalIp below).
 */

const INTERNAL_SUFFIXES = [".localhost", ".internal", ".local", ".lan", ".home.arpa", ".intranet", ".corp"];

/** Why `url`'s host is internal, or null for a public host. `url` has been parsed by WHATWG URL. */
export function internalAddress(url: URL): string | null {
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  if (host.startsWith("[")) return internalIpv6(host.slice(1, -1));
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host);
  if (v4) return internalIpv4(v4.slice(1, 5).map(Number) as [number, number, number, number]);
  if (host === "localhost") return "a loopback address (this machine)";
  if (!host.includes(".")) return "a name only the local network knows";
  if (INTERNAL_SUFFIXES.some((suffix) => host.endsWith(suffix))) return "a name only the local network knows";
  return null;
}

/** Why an IP address (as a resolver answers: `127.0.0.1`, `::1`, `::ffff:127.0.0.1`) is internal, or null. */
export function internalIp(ip: string): string | null {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (v4) return internalIpv4(v4.slice(1, 5).map(Number) as [number, number, number, number]);
  const lower = ip.toLowerCase().replace(/%.*$/, "");
  // IPv4-mapped in the dotted form resolvers write.
  const mapped = /^::ffff:(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(lower);
  if (mapped) return internalIpv4(mapped.slice(1, 5).map(Number) as [number, number, number, number]);
  return internalIpv6(lower);
}

function internalIpv4([a, b]: [number, number, number, number]): string | null {
  if (a === 127) return "a loopback address (this machine)";
  if (a === 0) return "an address meaning this machine";
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return "a private network address";
  if (a === 100 && b >= 64 && b <= 127) return "a carrier-grade private address";
  if (a === 169 && b === 254) return "a link-local address (cloud metadata lives here)";
  return null;
}

function internalIpv6(host: string): string | null {
  if (host === "::1" || host === "::") return "a loopback address (this machine)";
  // IPv4-mapped (`::ffff:127.0.0.1`, which the URL parser writes `::ffff:7f00:1`).
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (mapped) {
    const high = Number.parseInt(mapped[1]!, 16);
    const low = Number.parseInt(mapped[2]!, 16);
    return internalIpv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  }
  if (/^f[cd][0-9a-f]{2}:/.test(host)) return "a private network address";
  if (/^fe[89ab][0-9a-f]:/.test(host)) return "a link-local address";
  return null;
}
