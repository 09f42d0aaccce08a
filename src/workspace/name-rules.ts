/**
 * Names a share may not write, beyond the shape of its paths (paths.ts): names that make a folder a
 * version-control repository (whose config runs commands: `core.fsmonitor`, hooks, filters), names that
 * Windows cannot hold or reads as devices, and characters that make two different names look the same.
 */

/**
 * Folders (and files) that hold a repository. A `.git` file counts as much as a folder ("gitdir: elsewhere"
 * points git at a planted repository), and git's NTFS short name for `.git` is `git~1`.
 */
const VCS_NAMES = new Set([".git", "git~1", ".hg", ".svn", ".bzr", "_darcs", "cvs", ".jj", ".pijul", ".sl", ".fslckout", "_fossil_"]);

/** Devices on Windows, with or without an extension (`nul.txt` is the device too). */
const WINDOWS_DEVICES = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/;

/** Characters a Windows file name cannot hold (`:` also names an NTFS stream: `.git::$INDEX_ALLOCATION`). */
const WINDOWS_FORBIDDEN = /[<>:"|?*]/;

/**
 * Characters that show as nothing or change how a name reads: controls, format characters (zero-width
 * spaces and joiners, bidirectional marks and overrides, the BOM, the soft hyphen), line and paragraph
 * separators, and lone surrogates (they become U+FFFD when written, so two names could land on one).
 * macOS ignores some of these in names, so `.g\u200Cit` is `.git` there.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;

/** A name as a case-insensitive, normalization-insensitive file system compares it (macOS, Windows). */
export function foldedName(name: string): string {
  return name.normalize("NFC").toUpperCase().toLowerCase();
}

/** What Windows makes of a name: trailing dots and spaces dropped (`.git.` and `.git ` are `.git`). */
function windowsName(name: string): string {
  return name.replace(/[. ]+$/, "");
}

/** Whether a file or folder name is one that makes a repository (`.git`, `.HG`, `.git.`): shares and downloads leave these out. */
export function isVcsName(name: string): boolean {
  const folded = foldedName(name);
  return VCS_NAMES.has(folded) || VCS_NAMES.has(windowsName(folded));
}

/** Why one name of a path cannot be written, or undefined when it can. */
export function nameProblem(name: string): string | undefined {
  if (INVISIBLE.test(name)) return "it contains an invisible or control character (one that hides or reverses how the name reads)";
  const folded = foldedName(name);
  if (isVcsName(name))
    return `it names a version-control folder (${name}): a planted repository's config runs commands on the next git status`;
  if (/[. ]$/.test(name)) return "a name in it ends with a dot or a space (Windows drops them, so it would land on another name)";
  if (WINDOWS_FORBIDDEN.test(name)) return 'a name in it holds one of < > : " | ? * (Windows cannot hold them)';
  if (WINDOWS_DEVICES.test(windowsName(folded.split(".")[0]!)))
    return `a name in it is a Windows device name (${name.split(".")[0]}): Windows would read or write the device`;
  return undefined;
}

/**
 * The folder of `paths` that git would take for a bare repository (it holds HEAD, objects/ and refs/), or
 * undefined. `git status` inside such a folder reads its `config` as a repository's, `core.fsmonitor` and all,
 * with no `.git` anywhere. `folded` maps each folded path to itself: the check holds on case-insensitive disks.
 */
export function bareRepositoryIn(paths: Iterable<string>): string | undefined {
  const folded = new Set<string>();
  const folders = new Set<string>();
  for (const path of paths) {
    const key = path.split("/").map(foldedName).join("/");
    folded.add(key);
    for (let at = key.indexOf("/"); at >= 0; at = key.indexOf("/", at + 1)) folders.add(key.slice(0, at));
  }
  for (const path of folded) {
    if (!/(^|\/)head$/.test(path)) continue;
    const folder = path.slice(0, -"head".length);
    if (folders.has(`${folder}objects`) && folders.has(`${folder}refs`)) return folder === "" ? "." : folder.slice(0, -1);
  }
  return undefined;
}
