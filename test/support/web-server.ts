/**
 * A local web site for the web tools' tests: a real HTTP server on 127.0.0.1 with routes the test gives
 * (a handler per path), recording every request it received. Used by Node tests and started from the
 * Playwright config's side for the page (see e2e/webfetch.spec.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type Route = (request: IncomingMessage, response: ServerResponse, body: string) => unknown;

export interface WebServer {
  url: string;
  server: Server;
  requests: Array<{ method: string; path: string; headers: IncomingMessage["headers"]; body: string }>;
  close(): Promise<void>;
}

export async function startWebServer(routes: Record<string, Route>): Promise<WebServer> {
  const requests: WebServer["requests"] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const path = new URL(request.url ?? "/", "http://x").pathname;
      requests.push({ method: request.method ?? "GET", path, headers: request.headers, body });
      const route = routes[path];
      if (!route) {
        response.writeHead(404, { "content-type": "text/plain" }).end("not found");
        return;
      }
      Promise.resolve(route(request, response, body)).catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500).end(String(error));
        else response.destroy();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A 1x1 PNG (red), built byte by byte so the test does not depend on an image library. */
export const PNG_1X1 = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);
