/**
 * Why a server is not connected, as the page shows it (and checks for, to offer Trust instead of Retry).
 * Kept apart from the manager so the Tools pane can name them without loading the manager or zod.
 */
export const LOCAL_NEEDS_NODE =
  "local MCP servers run a command on this computer, which a browser tab cannot do: run this workspace with the workbench CLI (workbench run / workbench tool), or use the server's remote (URL) form";

export const NEEDS_TRUST =
  "not connected: the workspace is not trusted, and its MCP servers would run its commands or see the model's calls. Trust the workspace to connect them";
