import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import solid from "vite-plugin-solid";

// Cross-origin isolation, so WebContainer can be tried when asked for; every asset is same-origin.
const isolation = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "require-corp",
};

export default defineConfig({
  plugins: [solid()],
  resolve: {
    alias: {
      // just-bash's browser bundle imports node:zlib for gzip; those commands are not offered here.
      "node:zlib": fileURLToPath(new URL("./src/runtime/embedded/zlib-stub.ts", import.meta.url)),
    },
  },
  worker: { format: "es" },
  build: { target: "es2022", sourcemap: true, chunkSizeWarningLimit: 2048 },
  server: { headers: isolation },
  preview: { headers: isolation },
});
