/** The Node version programs see; modules and tests branch on it, so it names the line whose features this runtime follows. */
export const NODE_VERSION = "v22.12.0";
