// Lets node run this project's TypeScript sources as they are: tsx for TypeScript, and our hook for
// `?raw` text imports (the tools' descriptions), which Vite handles in the browser and in tests.
import { register } from "node:module";
import { register as registerTsx } from "tsx/esm/api";

registerTsx();
register("./raw-loader.mjs", import.meta.url);
