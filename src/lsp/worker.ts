/**
 * The page's language worker: TypeScript (about 3.5 MB minified) and its lib files live only here, so
 * neither is in the page's first paint. Lib files are separate chunks, fetched when a program first
 * asks for them.
 */
import type { Listing } from "./types.js";
import type { FileReply, FileRequest, Reply, Request } from "./protocol.js";
import type { TsProject } from "./project.js";
import { errorMessage } from "../base/error-message.js";

const libModules = import.meta.glob<string>("../../node_modules/typescript/lib/lib*.d.ts", { query: "?raw", import: "default" });
const libByName = new Map(Object.entries(libModules).map(([path, load]) => [path.slice(path.lastIndexOf("/") + 1), load]));

let project: Promise<TsProject> | undefined;
let nextFileRequest = 1;
const waiting = new Map<number, (reply: FileReply) => void>();

function ask(read: string[], list: string[]): Promise<FileReply> {
  const id = nextFileRequest++;
  return new Promise((resolve, reject) => {
    waiting.set(id, (reply) => (reply.error ? reject(new Error(reply.error)) : resolve(reply)));
    const message: FileRequest = { fileRequest: id, read, list };
    postMessage(message);
  });
}

async function handle(request: Request): Promise<unknown> {
  if (request.method === "open") {
    project = import("./project.js").then(({ TsProject }) =>
      TsProject.open(request.root, {
        read: async (paths) => (await ask(paths, [])).texts,
        list: async (dirs) => (await ask([], dirs)).listings as Record<string, Listing | null>,
        lib: async (name) => {
          const load = libByName.get(name);
          return load ? load() : undefined;
        },
      }),
    );
    await project;
    return null;
  }
  if (!project) throw new Error("the language worker was not opened on a workspace");
  const ready = await project;
  switch (request.method) {
    case "update":
      ready.update(request.path, request.text);
      return null;
    case "refresh":
      return ready.refresh();
    case "diagnostics":
      return ready.diagnostics(request.paths);
    case "query":
      return ready.query(request.query);
  }
}

addEventListener("message", (event: MessageEvent<Request | FileReply>) => {
  const data = event.data;
  if ("fileReply" in data) {
    waiting.get(data.fileReply)?.(data);
    waiting.delete(data.fileReply);
    return;
  }
  handle(data).then(
    (value) => postMessage({ id: data.id, ok: true, value } satisfies Reply),
    (error: unknown) => postMessage({ id: data.id, ok: false, error: errorMessage(error) } satisfies Reply),
  );
});
