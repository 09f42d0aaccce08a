/**
 * The fixture packages every npm test installs from the registry stand-in: a package with
 * dependencies, a bin, a nested version conflict (`leaf` 1 under `with-deps`, 2 at the top), a scoped
 * package, one with a wrong integrity, one depending on a name the registry does not have (404), and
 * one with an install script that must be skipped.
 */
import type { FixturePackage } from "./npm-registry.js";

export const npmFixtures: FixturePackage[] = [
  { name: "leaf", version: "1.0.0" },
  { name: "leaf", version: "1.1.0", license: "ISC" },
  { name: "leaf", version: "2.0.0" },
  { name: "@scope/util", version: "1.0.0" },
  { name: "@scope/util", version: "1.2.0", dependencies: { leaf: "^2.0.0" } },
  { name: "with-deps", version: "1.0.0", dependencies: { leaf: "^1.0.0", "@scope/util": "^1.0.0" } },
  { name: "needs-leaf2", version: "1.0.0", dependencies: { leaf: "^2.0.0" } },
  {
    name: "tool-bin",
    version: "1.0.0",
    bin: { "tool-bin": "cli.js", "tool-alias": "cli.js" },
    scripts: { postinstall: "node cli.js --installed" },
    files: {
      "cli.js": "#!/usr/bin/env node\nconsole.log('tool-bin ran', process.argv.slice(2).join(' '));\n",
      "lib/deep/data.txt": "deep file\n",
    },
  },
  { name: "bad-integrity", version: "1.0.0", corruptIntegrity: true },
  { name: "wants-missing", version: "1.0.0", dependencies: { "no-such-package": "^1.0.0" } },
  { name: "tagged", version: "1.0.0" },
  { name: "tagged", version: "2.0.0-beta.1" },
];

export const npmDistTags: Record<string, Record<string, string>> = { tagged: { next: "2.0.0-beta.1" } };
