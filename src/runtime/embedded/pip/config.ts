import { dirname, join } from "pathe";
import type { WorkspaceFs } from "../workspace-fs.js";

/** PyPI's simple index (PEP 503 and PEP 691), pip's default. */
export const DEFAULT_INDEX_URL = "https://pypi.org/simple/";

/** `index-url` from an INI pip.conf, `[install]` before `[global]`, as pip reads it. */
function indexUrlFromPipConf(text: string): string | undefined {
  const sections = new Map<string, Map<string, string>>();
  let section = "";
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const header = /^\[([^\]]+)\]$/.exec(line);
    if (header) {
      section = header[1]!.trim().toLowerCase();
      continue;
    }
    const match = /^([^=:]+)[=:](.*)$/.exec(line);
    if (!match) continue;
    const key = match[1]!.trim().toLowerCase().replace(/_/g, "-");
    if (!sections.has(section)) sections.set(section, new Map());
    sections.get(section)!.set(key, match[2]!.trim());
  }
  return sections.get("install")?.get("index-url") ?? sections.get("global")?.get("index-url");
}

/**
 * The index pip reads, as pip chooses it: `--index-url`, then PIP_INDEX_URL, then the pip.conf named by
 * PIP_CONFIG_FILE, then the nearest `pip.conf` from the current folder up to the workspace root, then PyPI.
 * Returns where it came from too, for the message when it cannot be reached.
 */
export async function chooseIndexUrl(
  files: WorkspaceFs,
  options: { flag?: string; env: Map<string, string>; cwd: string; root: string },
): Promise<string> {
  if (options.flag) return options.flag;
  const fromEnv = options.env.get("PIP_INDEX_URL");
  if (fromEnv) return fromEnv;
  const candidates: string[] = [];
  const named = options.env.get("PIP_CONFIG_FILE");
  if (named) candidates.push(named.startsWith("/") ? named : join(options.cwd, named));
  for (let folder = options.cwd; ; folder = dirname(folder)) {
    candidates.push(join(folder, "pip.conf"));
    if (folder === options.root || !folder.startsWith(`${options.root}/`) || folder === dirname(folder)) break;
  }
  for (const path of candidates) {
    const text = await files.readFile(path).then(
      (bytes) => new TextDecoder().decode(bytes),
      () => undefined,
    );
    const url = text === undefined ? undefined : indexUrlFromPipConf(text);
    if (url) return url;
  }
  return DEFAULT_INDEX_URL;
}
