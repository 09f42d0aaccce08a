import type { NpmCache } from "./cache.js";
import { registryFor, type NpmConfig } from "./config.js";
import { NpmError, notFound } from "./errors.js";
import { expectedIntegrity, sha512Integrity, verifyIntegrity } from "./integrity.js";
import type { Packument } from "./manifest.js";

/** How the npm command reaches the network: a plain fetch in a worker or on Node, the page's rules when it hands one in. */
export type NpmFetch = (url: string, init: { headers: Record<string, string>; signal?: AbortSignal }) => Promise<Response>;

/** What a tarball fetch needs: where it is and what it must hash to. */
export interface TarballRef {
  name: string;
  version: string;
  resolved: string;
  integrity?: string;
}

function packumentUrl(registry: string, name: string): string {
  // A scoped name keeps its @ and has its slash escaped, as npm asks for it.
  return `${registry}${name.replace("/", "%2f")}`;
}

function reasonOf(error: unknown): string {
  if (error instanceof Error) return error.cause instanceof Error ? `${error.message} (${error.cause.message})` : error.message;
  return String(error);
}

/** Fetches packuments and tarballs, keeping both in the cache and answering from it when the network cannot. */
export class RegistryClient {
  /** Packuments already read in this run: every edge to a name asks for it once. */
  private readonly packuments = new Map<string, Promise<Packument>>();

  constructor(
    private readonly config: NpmConfig,
    private readonly cache: NpmCache,
    private readonly fetch: NpmFetch,
    private readonly signal?: AbortSignal,
    /** Told once per name whose packument was read, for the install's progress lines. */
    private readonly onPackument?: () => void,
  ) {}

  packument(name: string, spec: string): Promise<Packument> {
    let pending = this.packuments.get(name);
    if (!pending) {
      pending = this.loadPackument(name, spec);
      this.packuments.set(name, pending);
      if (this.onPackument) pending.then(this.onPackument, () => undefined);
    }
    return pending;
  }

  private async loadPackument(name: string, spec: string): Promise<Packument> {
    const registry = registryFor(this.config, name);
    const url = packumentUrl(registry, name);
    const cached = () => this.cache.readPackument(registry, name);
    if (this.config.offline) {
      const text = await cached();
      if (text) return JSON.parse(text) as Packument;
      throw new NpmError("ENOTCACHED", [`request to ${url} failed: offline, and ${name} is not in the cache (${this.config.cache}).`]);
    }
    let response: Response;
    try {
      response = await this.fetch(url, {
        headers: { accept: "application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8, */*" },
        signal: this.signal,
      });
    } catch (error) {
      // A refusal is the person's answer, not the network's: the cache does not stand in for it.
      if (error instanceof NpmError) throw error;
      const text = await cached();
      if (text) return JSON.parse(text) as Packument;
      throw new NpmError("ENOTCACHED", [
        `request to ${url} failed, reason: ${reasonOf(error)}`,
        `${name} could not be fetched and is not in the cache (${this.config.cache}).`,
        `Connect to the network, or check the registry set by .npmrc (registry=) or npm_config_registry (now ${registry}).`,
      ]);
    }
    if (response.status === 404) throw notFound(url, `${name}@${spec}`, 404, "Not Found");
    if (!response.ok) throw new NpmError(`E${response.status}`, [`${response.status} ${response.statusText} - GET ${url}`]);
    const text = await response.text();
    let parsed: Packument;
    try {
      parsed = JSON.parse(text) as Packument;
    } catch {
      throw new NpmError("EJSONPARSE", [`The registry answered GET ${url} with something that is not JSON.`]);
    }
    await this.cache.writePackument(registry, name, text);
    return parsed;
  }

  /** A tarball's bytes, checked against its integrity; from the cache when it holds them. */
  async tarball(ref: TarballRef): Promise<{ bytes: Uint8Array; integrity: string; fromCache: boolean }> {
    const integrity = ref.integrity;
    if (integrity) {
      const cached = await this.cache.readTarball(integrity);
      if (cached) {
        try {
          await verifyIntegrity(cached, integrity, `${ref.name}@${ref.version} from the cache`);
          return { bytes: cached, integrity, fromCache: true };
        } catch {
          // A damaged cache entry is fetched again below.
        }
      }
    }
    const what = `${ref.name}@${ref.resolved}`;
    if (this.config.offline)
      throw new NpmError("ENOTCACHED", [
        `request to ${ref.resolved} failed: offline, and ${ref.name}@${ref.version} is not in the cache (${this.config.cache}).`,
      ]);
    let response: Response;
    try {
      response = await this.fetch(ref.resolved, { headers: { accept: "*/*" }, signal: this.signal });
    } catch (error) {
      if (error instanceof NpmError) throw error;
      throw new NpmError("ENOTCACHED", [
        `request to ${ref.resolved} failed, reason: ${reasonOf(error)}`,
        `${ref.name}@${ref.version} could not be fetched and is not in the cache (${this.config.cache}).`,
        "Connect to the network and run the install again.",
      ]);
    }
    if (response.status === 404) throw notFound(ref.resolved, `${ref.name}@${ref.version}`, 404, "Not Found");
    if (!response.ok) throw new NpmError(`E${response.status}`, [`${response.status} ${response.statusText} - GET ${ref.resolved}`]);
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (integrity) await verifyIntegrity(bytes, integrity, `tarball data for ${what}`);
    const stored = integrity ?? (await sha512Integrity(bytes));
    await this.cache.writeTarball(stored, bytes);
    return { bytes, integrity: integrity ?? stored, fromCache: false };
  }
}

export { expectedIntegrity };
