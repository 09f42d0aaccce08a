/**
 * The bounds a share link or `.workbench.json` file must keep. They are checked while decoding, before
 * anything is written, so a hostile link costs the visitor at most these amounts of memory and nothing on disk.
 */

/** Bytes a link's payload may inflate to (file contents, the session and the manifest together). */
export const MAX_INFLATED_BYTES = 16 * 1024 * 1024;
/** Characters of payload a link may carry (browsers keep about 2 MB of address; more is a file's job). */
export const MAX_LINK_PAYLOAD_CHARS = 4 * 1024 * 1024;
/** Bytes a `.workbench.json` file may have. */
export const MAX_SHARE_FILE_BYTES = 64 * 1024 * 1024;
/** Files one share may hold. */
export const MAX_SHARE_FILES = 5_000;
/** Characters of one path, and of one of its names. */
export const MAX_PATH_CHARS = 1_024;
export const MAX_NAME_CHARS = 255;
/** Names one path may have (folders and the file): 300 empty folders froze a tab for minutes. */
export const MAX_PATH_DEPTH = 64;
/** Distinct folders one share may make. */
export const MAX_SHARE_FOLDERS = 10_000;
/** How deep the JSON of a share's manifest or session may nest (deeper broke the stack when shown or saved). */
export const MAX_JSON_DEPTH = 100;

/** Past this many characters a link is cut by some chat apps and mail clients: the page warns. */
export const LINK_WARN_CHARS = 2_000;
/** Past this many characters the page offers the `.workbench.json` file instead of the link. */
export const LINK_FILE_CHARS = 64 * 1024;
