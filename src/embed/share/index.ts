/** Share links and `.workbench.json` files: the API the page, the embed and the CLI call. */
export { decodeShareLink, encodeShareLink } from "./link.js";
export { fromShareFile, toShareFile } from "./file-form.js";
export { LINK_FILE_CHARS, LINK_WARN_CHARS } from "./limits.js";
export { withoutSecrets } from "./secrets.js";
export { ShareState, type ShareResult } from "./state.js";
