import { errorMessage } from "../../../base/error-message.js";
import type { NpmFetch } from "../npm/registry-client.js";
import { PipError } from "./errors.js";
import { normalizeName } from "./names.js";

/** How pip reaches the network: the same shape as npm's (a plain fetch, the page's rules, the proxy). */
export type PipFetch = NpmFetch;

/** One file of a project on the index (PEP 503 / PEP 691). */
export interface IndexFile {
  filename: string;
  /** Absolute, resolved against the project page. */
  url: string;
  sha256?: string;
  requiresPython?: string;
  yanked: boolean;
}

const SIMPLE_JSON = "application/vnd.pypi.simple.v1+json";

const entities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, body: string) => {
    if (body[0] === "#")
      return String.fromCodePoint(body[1] === "x" || body[1] === "X" ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1)));
    return entities[body.toLowerCase()] ?? whole;
  });
}

/** The anchors of a PEP 503 project page: the file name is the link's text, the hash its URL's fragment. */
export function parseSimpleHtml(html: string, pageUrl: string): IndexFile[] {
  const files: IndexFile[] = [];
  for (const match of html.matchAll(/<a\s([^>]*)>([^<]*)<\/a\s*>/gi)) {
    const attributes = new Map<string, string>();
    for (const attribute of match[1]!.matchAll(/([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g))
      attributes.set(attribute[1]!.toLowerCase(), decodeEntities(attribute[2] ?? attribute[3] ?? attribute[4] ?? ""));
    const href = attributes.get("href");
    if (!href) continue;
    const url = new URL(href, pageUrl);
    const sha256 = /(?:^|&)sha256=([0-9a-f]{64})/i.exec(url.hash.slice(1))?.[1]?.toLowerCase();
    url.hash = "";
    const filename = decodeEntities(match[2]!).trim() || decodeURIComponent(url.pathname.split("/").pop() ?? "");
    files.push({
      filename,
      url: url.href,
      sha256,
      requiresPython: attributes.get("data-requires-python") || undefined,
      yanked: attributes.has("data-yanked"),
    });
  }
  return files;
}

/** PEP 691's JSON project page. */
export function parseSimpleJson(text: string, pageUrl: string): IndexFile[] {
  const page = JSON.parse(text) as { files?: unknown };
  if (!Array.isArray(page.files)) throw new Error("the JSON project page has no files list");
  return page.files.flatMap((raw: unknown) => {
    if (typeof raw !== "object" || raw === null) return [];
    const file = raw as { filename?: unknown; url?: unknown; hashes?: { sha256?: unknown }; "requires-python"?: unknown; yanked?: unknown };
    if (typeof file.filename !== "string" || typeof file.url !== "string") return [];
    const url = new URL(file.url, pageUrl);
    url.hash = "";
    return [
      {
        filename: file.filename,
        url: url.href,
        sha256: typeof file.hashes?.sha256 === "string" ? file.hashes.sha256.toLowerCase() : undefined,
        requiresPython: typeof file["requires-python"] === "string" ? file["requires-python"] : undefined,
        yanked: file.yanked !== undefined && file.yanked !== false,
      },
    ];
  });
}

function hex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Reads project pages and downloads files from one index (a PEP 503 "simple" root such as PyPI's /simple/). */
export class IndexClient {
  readonly indexUrl: string;
  /** What was fetched, for the summary line. */
  downloadedBytes = 0;

  constructor(
    indexUrl: string,
    private readonly fetch: PipFetch,
    private readonly signal?: AbortSignal,
  ) {
    this.indexUrl = indexUrl.endsWith("/") ? indexUrl : `${indexUrl}/`;
  }

  private async get(url: string, accept: string): Promise<Response> {
    try {
      return await this.fetch(url, { headers: { accept }, signal: this.signal });
    } catch (error) {
      if (this.signal?.aborted || error instanceof PipError) throw error;
      throw new PipError([
        `Could not reach the package index: GET ${url} failed (${errorMessage(error)}).`,
        "pip install needs the network: connect and run it again, or point pip at a reachable index",
        "(--index-url URL, PIP_INDEX_URL, or index-url in a pip.conf), or set a fetch proxy in Settings → Web.",
      ]);
    }
  }

  /** The project's files; a project the index does not have is a clear error naming it. */
  async project(name: string): Promise<IndexFile[]> {
    const url = `${this.indexUrl}${normalizeName(name)}/`;
    const response = await this.get(url, `${SIMPLE_JSON}, text/html;q=0.1`);
    if (response.status === 404)
      throw new PipError([
        `Could not find a version that satisfies the requirement ${name} (the index has no project '${name}': 404 at ${url})`,
        `No matching distribution found for ${name}`,
      ]);
    if (!response.ok) throw new PipError([`The index answered ${response.status} ${response.statusText} for ${url}`]);
    const text = await response.text();
    const type = response.headers.get("content-type") ?? "";
    try {
      return type.includes("json") ? parseSimpleJson(text, response.url || url) : parseSimpleHtml(text, response.url || url);
    } catch (error) {
      throw new PipError([`The index's page for ${name} (${url}) cannot be read: ${errorMessage(error)}`]);
    }
  }

  /** A file's bytes, checked against the sha256 the index gave for it. */
  async download(file: IndexFile): Promise<Uint8Array> {
    const response = await this.get(file.url, "*/*");
    if (!response.ok) throw new PipError([`HTTP error ${response.status} while getting ${file.url}`]);
    const bytes = new Uint8Array(await response.arrayBuffer());
    this.downloadedBytes += bytes.byteLength;
    if (file.sha256) {
      const actual = hex(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
      if (actual !== file.sha256)
        throw new PipError([
          "THESE PACKAGES DO NOT MATCH THE HASHES FROM THE PACKAGE INDEX. Nothing was installed.",
          `    ${file.filename} from ${file.url}:`,
          `        Expected sha256 ${file.sha256}`,
          `             Got        ${actual}`,
        ]);
    }
    return bytes;
  }
}
