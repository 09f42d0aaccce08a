/**
 * `#from=<url>` fetches a .workbench.json from another site. A site that never finishes its answer (or
 * trickles it) must not leave the visitor on "Opening the shared workspace…" for ever: the fetch ends with a
 * message saying what happened and what to do; one that refuses the scheme or sends too much is refused.
 * A real HTTP server on 127.0.0.1.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { fetchShareFile } from "../../src/embed/share/open-share.js";

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

describe("#from= cannot hang or flood the page", () => {
  it("a server that sends headers and then nothing more is given up on, with a message", async () => {
    const url = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "access-control-allow-origin": "*" });
      response.write('{"format":"workbench-share",');
    });
    const result = await fetchShareFile(`${url}demo.workbench.json`, url, { timeoutMs: 300 });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(/did not finish.*download it/i);
  });

  it("a server that never answers at all is given up on too", async () => {
    const url = await serve(() => {});
    const result = await fetchShareFile(`${url}demo.workbench.json`, url, { timeoutMs: 300 });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(/did not finish/i);
  });

  it("other schemes are refused before any fetch", async () => {
    for (const address of ["file:///etc/passwd", "data:application/json,{}", "javascript:alert(1)"]) {
      const result = await fetchShareFile(address, "https://workbench.example/");
      expect(!result.ok && result.error).toMatch(/http or https/);
    }
  });
});
