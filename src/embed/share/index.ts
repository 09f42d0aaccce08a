/** Share links and `.workbench.json` files: the API the page, the embed and the CLI call. */
export { decodeShareLink, encodePayload, encodeShareLink, SHARE_HASH_KEY } from "./link.js";
export { fromShareFile, SHARE_FILE_SUFFIX, toShareFile } from "./file-form.js";
export { LINK_FILE_CHARS, LINK_WARN_CHARS, MAX_INFLATED_BYTES, MAX_SHARE_FILES } from "./limits.js";
export { sharePathProblem } from "./paths.js";
export { hasSecrets, withoutSecrets } from "./secrets.js";
export { Pane, SHARE_FORMAT, ShareError, ShareState, ViewOptions, type ShareResult } from "./state.js";
export { filesOf } from "./validate.js";
