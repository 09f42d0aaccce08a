/**
 * The shell's device layer over the workspace's file system (a plain object, as createBashFs makes it):
 * what commands read and list under /dev and on PATH, in process, without a worker.
 */
import { InMemory, resolveMountConfig } from "@zenfs/core";
import { Bash } from "just-bash/browser";
import { describe, expect, it } from "vitest";
import { createBashFs } from "../../src/runtime/embedded/bash-fs.js";
import { withShellDevices } from "../../src/runtime/embedded/shell-devices.js";
import { createZenFsHost } from "../../src/runtime/embedded/zenfs-host.js";

async function shell(commandNames: readonly string[] = []) {
  const host = createZenFsHost(await resolveMountConfig({ backend: InMemory }));
  await host.mkdir("/work", { recursive: true });
  const emitted: string[] = [];
  const bash = new Bash({ fs: withShellDevices(createBashFs(host), (_, text) => emitted.push(text), commandNames), cwd: "/work" });
  return { bash, host, emitted };
}

describe("shell devices over a plain file system object", () => {
  it("hand commands the devices, not the workspace, for /dev/null", async () => {
    const { bash, emitted } = await shell();
    const result = await bash.exec("cat /dev/null; head -c 3 /dev/null; tail /dev/null; echo rc=$?; echo gone > /dev/null");
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("rc=0\n");
    expect(emitted).toEqual([]);
  });

  it("list /dev and the command directories without storing them", async () => {
    // Once /usr/bin exists just-bash runs only what it finds there: every registered command must be named.
    const { bash, host } = await shell(["ls", "which", "echo"]);
    expect((await bash.exec("ls /dev; ls /usr/bin; ls /bin; ls /usr")).stdout).toBe("null\necho\nls\nwhich\necho\nls\nwhich\nbin\n");
    expect((await bash.exec("which -a ls; which grep; echo rc=$?")).stdout).toBe("/usr/bin/ls\n/bin/ls\nrc=1\n");
    for (const path of ["/dev", "/usr", "/bin"]) await expect(host.stat(path)).rejects.toThrow();
  });

  it("keep what the workspace stores in a command directory beside the commands", async () => {
    const { bash, host } = await shell(["ls", "which"]);
    await host.mkdir("/usr/bin", { recursive: true });
    await host.writeFile("/usr/bin/tool", new TextEncoder().encode("#!/bin/bash\necho tool\n"));
    expect((await bash.exec("ls /usr/bin")).stdout).toBe("ls\ntool\nwhich\n");
  });
});
