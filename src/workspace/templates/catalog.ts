import { nodeTests } from "./node-tests.js";
import { pythonScript } from "./python-script.js";
import type { Template } from "./template.js";
import { webApp } from "./web-app.js";

/** The templates the first screen offers, in the order it lists them. */
export const TEMPLATES: readonly Template[] = [webApp, nodeTests, pythonScript];
