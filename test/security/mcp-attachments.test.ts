/**
 * An MCP server's images and audio are bounded like webfetch's bodies (5 MB): a server answering with a
 * 20 MB "image" must not put it into the call record, the saved session and every later request. The
 * call keeps its text and says what was left out. A real server made with the official SDK on 127.0.0.1.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_RESPONSE_BYTES } from "../../src/tools/ports/web-access.js";
import { sessionWith } from "../support/tool-session.js";

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const SMALL = Buffer.from("small image bytes").toString("base64");
const HUGE = Buffer.alloc(MAX_RESPONSE_BYTES * 4, 7).toString("base64");

async function imageServer(): Promise<string> {
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const mcp = new McpServer({ name: "images", version: "1.0.0" });
    mcp.registerTool("pictures", { description: "Two pictures" }, () => ({
      content: [
        { type: "text", text: "here they are" },
        { type: "image", mimeType: "image/png", data: SMALL },
        { type: "image", mimeType: "image/png", data: HUGE },
      ],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on("close", () => void transport.close().then(() => mcp.close()));
    await mcp.connect(transport);
    await transport.handleRequest(request, response, text ? (JSON.parse(text) as unknown) : undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

describe("an MCP server's attachments are bounded", () => {
  it("an image over 5 MB is left out with a note; the small one and the text stay", async () => {
    const url = await imageServer();
    const s = await sessionWith({
      "opencode.json": JSON.stringify({ mcp: { img: { type: "remote", url } }, permission: { "*": "allow" } }),
    });
    cleanups.push(async () => {
      await s.session.mcp.close();
      await s.dispose();
    });
    await s.session.mcp.ready();
    const call = await s.session.run("img_pictures", {});
    expect(call.status).toBe("completed");
    expect(call.attachments?.map((part) => part.url)).toEqual([`data:image/png;base64,${SMALL}`]);
    expect(call.output).toContain("here they are");
    expect(call.output).toMatch(/left out.*larger than 5 MB/);
  });
});
