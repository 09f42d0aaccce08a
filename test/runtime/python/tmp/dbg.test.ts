import { it } from "vitest";
import { pythonRuntime } from "../support.js";
it("dbg", async () => {
  const rt = await pythonRuntime();
  await rt.exec("python3 -c pass", { timeoutMs: 120000 });
  await rt.fs.mkdir("/outside");
  for (const c of [
    'python3 -c \'import js; js.eval("import(\\"node:child_process\\").then(m => m.execSync(\\"id\\"))")\nimport time\ntime.sleep(0.5)\'',
    "python3 -c 'print(1)'",
    'python3 -c \'open("/outside/kept.txt", "w").write("changed")\nprint("done")\'',
    "python3 -c 'import time\nt=time.time()\nfor i in range(100): print(\"x\" * 65536)\nimport sys; print(time.time()-t, file=sys.stderr)' > /dev/null",
  ]) {
    const t = Date.now();
    const r = await rt.exec(c, { timeoutMs: 120000 });
    console.log(Date.now() - t, JSON.stringify(r).slice(0, 600));
  }
  await rt.dispose();
}, 300000);
