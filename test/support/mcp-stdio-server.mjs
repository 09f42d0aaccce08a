// A local (stdio) MCP server for the CLI's tests, made with the official SDK: one tool, `where`, that
// answers with the folder it runs in and the value of MCP_TEST_GREETING from its entry's environment.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "stdio-test", version: "1.0.0" });
server.registerTool("where", { description: "Says where it runs", inputSchema: { prefix: z.string() } }, ({ prefix }) => ({
  content: [
    {
      type: "text",
      text: `${prefix} ${process.cwd()} ${process.env.MCP_TEST_GREETING ?? "(no greeting)"} key=${process.env.TEST_PROVIDER_KEY ?? "hidden"}`,
    },
  ],
}));
await server.connect(new StdioServerTransport());
