/**
 * Path arithmetic as ripgrep does it: paths keep the spelling they were given ("./src", "src/",
 * "/abs"), children are joined onto that spelling, and matching strips prefixes component-wise.
 */

/** Rust's `Path::join` for a single file name: no separator is added after one that is already there. */
export function joinPath(parent: string, name: string): string {
  if (parent === "") return name;
  return parent.endsWith("/") ? parent + name : `${parent}/${name}`;
}

/** Drops leading "./" components ("./a" → "a", "./" → ""). */
export function stripDotSlash(path: string): string {
  let p = path;
  while (p.startsWith("./")) {
    p = p.slice(2);
    while (p.startsWith("/")) p = p.slice(1);
  }
  return p;
}

/** "a//b/" → "a/b" (keeps a leading "/"; "" stays ""). */
export function trimSlashes(path: string): string {
  const absolute = path.startsWith("/");
  const parts = path.split("/").filter((part) => part !== "" && part !== ".");
  const joined = parts.join("/");
  return absolute ? `/${joined}` : joined;
}

/**
 * `path` relative to `prefix` when `prefix` is a leading run of its components, else undefined.
 * Both are compared after trimming redundant separators and "." components.
 */
export function stripPrefixPath(prefix: string, path: string): string | undefined {
  // The common case, both already in normal form: a plain string prefix.
  if (prefix !== "" && prefix !== "/" && !prefix.endsWith("/") && path.startsWith(prefix) && path.charCodeAt(prefix.length) === 47) {
    const rest = path.slice(prefix.length + 1);
    if (!rest.includes("//") && !rest.startsWith("/") && !rest.includes("/./") && !rest.startsWith("./") && !prefix.includes("//")) {
      return rest.endsWith("/") || rest.endsWith("/.") ? trimSlashes(rest) : rest;
    }
  }
  const p = trimSlashes(prefix);
  const full = trimSlashes(path);
  if (p === "") return full.startsWith("/") ? undefined : full;
  if (p === "/") return full.startsWith("/") ? full.slice(1) : undefined;
  if (full === p) return "";
  if (full.startsWith(`${p}/`)) return full.slice(p.length + 1);
  return undefined;
}

/** Lexical posix normalisation of an absolute path ("/a/./b/../c" → "/a/c"). */
export function normalizeAbsolute(path: string): string {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return `/${out.join("/")}`;
}

/** `path` made absolute against `base` (itself absolute), normalised. */
export function resolvePath(base: string, path: string): string {
  return normalizeAbsolute(path.startsWith("/") ? path : `${base}/${path}`);
}

export function dirnameOf(path: string): string {
  const i = path.lastIndexOf("/");
  if (i <= 0) return "/";
  return path.slice(0, i);
}

function basenameOf(path: string): string {
  const trimmed = path.length > 1 && path.endsWith("/") ? path.replace(/\/+$/, "") : path;
  const i = trimmed.lastIndexOf("/");
  return i < 0 ? trimmed : trimmed.slice(i + 1);
}
