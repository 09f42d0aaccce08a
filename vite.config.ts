import { fileURLToPath } from "node:url";
import { build, defineConfig, type Plugin } from "vite";
import solid from "vite-plugin-solid";

// Cross-origin isolation, so WebContainer can be tried when asked for; every asset is same-origin.
// The embed's frame (`/?embed=1`) needs none of it: it runs the embedded runtime, which works without.
const isolation = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "require-corp",
};

const EMBED_ENTRY = fileURLToPath(new URL("./src/embed/sdk.ts", import.meta.url));

/**
 * embed.js: the host pages' module, built alone (no solid, no AI SDK) and emitted at the site root, and
 * served to any origin (`Access-Control-Allow-Origin: *`), since docs pages import it from theirs.
 */
function embedScript(): Plugin {
  return {
    name: "workbench-embed-script",
    apply: "build",
    async generateBundle() {
      const output = await build({
        configFile: false,
        logLevel: "warn",
        build: {
          write: false,
          target: "es2022",
          minify: true,
          lib: { entry: EMBED_ENTRY, formats: ["es"], fileName: () => "embed.js" },
        },
      });
      const chunks = (Array.isArray(output) ? output : [output]).flatMap((result) => ("output" in result ? result.output : []));
      const chunk = chunks.find((item) => item.type === "chunk" && item.fileName === "embed.js");
      if (!chunk || chunk.type !== "chunk") throw new Error("embed.js was not built");
      this.emitFile({ type: "asset", fileName: "embed.js", source: chunk.code });
    },
  };
}

/**
 * The header on /embed.js in `vite preview` (what `npm start` serves; vite resolves preview's config as
 * "serve", so this plugin is not build-only) and in `npm run dev`, where /embed.js is the source module
 * itself, compiled on the fly.
 */
function embedScriptServe(): Plugin {
  return {
    name: "workbench-embed-script-serve",
    apply: "serve",
    configurePreviewServer(server) {
      server.middlewares.use((req, res, next) => {
        if (req.url?.split("?")[0] === "/embed.js") res.setHeader("Access-Control-Allow-Origin", "*");
        next();
      });
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        if (req.url?.split("?")[0] === "/embed.js") {
          res.setHeader("Access-Control-Allow-Origin", "*");
          req.url = "/src/embed/sdk.ts";
        }
        next();
      });
    },
  };
}

/**
 * No page of the workbench may be framed by another site, except the embed's frame (`/?embed=1`), which
 * exists to be: a framed workbench at low opacity lets a page steer clicks onto Trust, Always allow or
 * Delete. The embed's frame holds no keys, trust or workspaces of the visitor's and never offers Trust.
 * A static host must send the same two headers on every response but `/?embed=1` (docs/threat-model.md).
 */
export const FRAME_HEADERS = { "Content-Security-Policy": "frame-ancestors 'none'", "X-Frame-Options": "DENY" };

function isEmbedFrame(url: string | undefined): boolean {
  return new URLSearchParams(url?.split("?")[1]?.split("#")[0] ?? "").get("embed") === "1";
}

function framingHeaders(): Plugin {
  const use = (middlewares: {
    use(handler: (req: { url?: string }, res: { setHeader(name: string, value: string): void }, next: () => void) => void): void;
  }) =>
    middlewares.use((req, res, next) => {
      if (!isEmbedFrame(req.url)) for (const [name, value] of Object.entries(FRAME_HEADERS)) res.setHeader(name, value);
      next();
    });
  return {
    name: "workbench-framing-headers",
    apply: "serve",
    configurePreviewServer(server) {
      use(server.middlewares);
    },
    configureServer(server) {
      use(server.middlewares);
    },
  };
}

const NODE_PROCESS_MODULE = fileURLToPath(new URL("./src/runtime/embedded/node/runtime/process-module.ts", import.meta.url));

/** In the node runtime's sandbox script, readable-stream's `require("process/")` gets the program's process. */
function nodeRuntimeProcess(): Plugin {
  return {
    name: "workbench-node-runtime-process",
    resolveId(source) {
      return /^process\/?$/.test(source) ? NODE_PROCESS_MODULE : null;
    },
  };
}

export default defineConfig({
  plugins: [solid(), embedScript(), embedScriptServe(), framingHeaders()],
  resolve: {
    alias: {
      // just-bash's browser bundle imports node:zlib for gzip; those commands are not offered here.
      "node:zlib": fileURLToPath(new URL("./src/runtime/embedded/zlib-stub.ts", import.meta.url)),
    },
  },
  worker: { format: "es", plugins: () => [nodeRuntimeProcess()] },
  build: { target: "es2022", sourcemap: true, chunkSizeWarningLimit: 2048 },
  server: { headers: isolation },
  preview: { headers: isolation },
});
