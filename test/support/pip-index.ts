/**
 * A package index on 127.0.0.1 for the pip tests (PEP 503 HTML, or PEP 691 JSON when asked for it), serving
 * the wheels build-wheels.py makes with real python3 in a temporary folder and the setuptools wheel that
 * python3's ensurepip carries (a published one). Its answers allow any origin
 * (PyPI's do too), so the page can read them. `badhash`'s page gives a wrong sha256; a project with no
 * wheel here is a 404, as on PyPI.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFile, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startWebServer, type WebServer } from "./web-server.js";

export interface PipIndex {
  /** The simple index's root, `.../simple/`. */
  url: string;
  server: WebServer;
  /** The folder holding the wheels (real pip can read them too). */
  wheelDir: string;
  /** Paths asked for since the start. */
  requestedPaths(): string[];
  close(): Promise<void>;
}

const normalize = (name: string) => name.toLowerCase().replace(/[-_.]+/g, "-");

export async function startPipIndex(options: { htmlOnly?: boolean } = {}): Promise<PipIndex> {
  const wheelDir = await mkdtemp(join(tmpdir(), "wb-wheels-"));
  const script = fileURLToPath(new URL("./build-wheels.py", import.meta.url));
  const built = spawnSync("python3", [script, wheelDir], { encoding: "utf8" });
  if (built.status !== 0) throw new Error(`build-wheels.py failed: ${built.stderr}`);
  // A published wheel too, built by the real tools: the setuptools CPython's ensurepip carries.
  const bundled = spawnSync(
    "python3",
    [
      "-c",
      "import ensurepip, glob, os; print(*glob.glob(os.path.join(os.path.dirname(ensurepip.__file__), '_bundled', 'setuptools-*.whl')))",
    ],
    { encoding: "utf8" },
  ).stdout.trim();
  if (!bundled) throw new Error("python3's ensurepip carries no setuptools wheel: the pip tests need one published wheel");
  await copyFile(bundled, join(wheelDir, basename(bundled)));
  const wheels = new Map<string, Buffer>();
  for (const name of await readdir(wheelDir)) wheels.set(name, await readFile(join(wheelDir, name)));
  const projects = new Map<string, string[]>();
  for (const filename of wheels.keys()) {
    const project = normalize(filename.split("-")[0]!);
    projects.set(project, [...(projects.get(project) ?? []), filename]);
  }
  const sha = (filename: string) =>
    filename.startsWith("badhash-") ? "0".repeat(64) : createHash("sha256").update(wheels.get(filename)!).digest("hex");
  const routes: Parameters<typeof startWebServer>[0] = {};
  for (const [project, filenames] of projects) {
    routes[`/simple/${project}/`] = (request, response) => {
      if (!options.htmlOnly && String(request.headers.accept ?? "").includes("application/vnd.pypi.simple.v1+json")) {
        const files = filenames.map((filename) => ({ filename, url: `../../files/${filename}`, hashes: { sha256: sha(filename) } }));
        response.writeHead(200, { "content-type": "application/vnd.pypi.simple.v1+json", "access-control-allow-origin": "*" });
        response.end(JSON.stringify({ meta: { "api-version": "1.0" }, name: project, files }));
        return;
      }
      const links = filenames.map((filename) => `<a href="../../files/${filename}#sha256=${sha(filename)}">${filename}</a><br/>`);
      response.writeHead(200, { "content-type": "text/html", "access-control-allow-origin": "*" });
      response.end(`<!DOCTYPE html><html><body><h1>Links for ${project}</h1>${links.join("\n")}</body></html>`);
    };
  }
  for (const [filename, bytes] of wheels)
    routes[`/files/${filename}`] = (_request, response) => {
      response.writeHead(200, { "content-type": "application/octet-stream", "access-control-allow-origin": "*" });
      response.end(bytes);
    };
  const server = await startWebServer(routes);
  return {
    url: `${server.url}/simple/`,
    server,
    wheelDir,
    requestedPaths: () => server.requests.map((request) => request.path),
    close: async () => {
      await server.close();
      await rm(wheelDir, { recursive: true, force: true });
    },
  };
}
