/**
 * Background shell jobs (`background: true` on bash and shell), on the embedded and node runtimes: the call
 * returns at once with a job id; the output streams to a saved file the model can read; the end is told to the
 * model before its next step; Stop and the session's end stop the job; the command is judged like any other.
 */
import { describe, expect, it } from "vitest";
import { fileBackends, sessionOn } from "../../support/tool-session.js";
import { loopOnce, mockModel, promptText, resolved, streamStep } from "../../support/loop.js";

const ALLOW_ALL = { "opencode.json": JSON.stringify({ permission: { "*": "allow", bash: { "*": "allow", "rm *": "deny" } } }) };

describe.each(fileBackends)("background jobs on %s", (backend) => {
  it("returns at once with a job id; the output streams to a file the read tool reads; the end is recorded", async () => {
    const { session, dispose } = await sessionOn(backend, ALLOW_ALL);
    try {
      const call = await session.run("bash", { command: "echo first; sleep 1; echo second", description: "Two lines", background: true });
      expect(call.status).toBe("completed");
      const jobId = (call.metadata as { jobId?: string }).jobId!;
      expect(call.output).toContain(`job ${jobId}`);
      // Still running when the call has returned: the call did not wait for the command.
      expect(session.jobs!.get(jobId)?.status).toBe("running");
      const ended = await session.jobs!.ended(jobId);
      expect(ended).toMatchObject({ status: "completed", exitCode: 0 });
      expect(await session.jobs!.output(jobId)).toBe("first\nsecond\n");
      const read = await session.run("read", { filePath: ended!.outputPath });
      expect(read.status).toBe("completed");
      expect(read.output).toContain("second");
      const [notice] = session.jobs!.takeEnded();
      expect(notice).toMatchObject({ job: { id: jobId, status: "completed" }, tail: "first\nsecond\n" });
      expect(session.jobs!.takeEnded()).toEqual([]);
    } finally {
      await dispose();
    }
  });

  it("reports a failing command's exit code", async () => {
    const { session, dispose } = await sessionOn(backend, ALLOW_ALL);
    try {
      const call = await session.run("bash", { command: "echo oops >&2; exit 7", description: "Fails", background: true });
      const ended = await session.jobs!.ended((call.metadata as { jobId: string }).jobId);
      expect(ended).toMatchObject({ status: "failed", exitCode: 7 });
    } finally {
      await dispose();
    }
  });

  it("stops a job on Stop, and every job when the session ends", async () => {
    const { session, dispose } = await sessionOn(backend, ALLOW_ALL);
    try {
      const one = await session.run("bash", { command: "sleep 30", description: "Sleeps", background: true });
      const two = await session.run("bash", { command: "sleep 30", description: "Sleeps", background: true });
      const [first, second] = [one, two].map((call) => (call.metadata as { jobId: string }).jobId);
      expect(await session.jobs!.stop(first!)).toBe(true);
      expect(session.jobs!.get(first!)?.status).toBe("stopped");
      expect(await session.jobs!.stop(first!)).toBe(false);
      await session.jobs!.stopAll();
      expect(session.jobs!.get(second!)?.status).toBe("stopped");
    } finally {
      await dispose();
    }
  });

  it("judges a background command like a foreground one: a denied command starts no job", async () => {
    const { session, dispose } = await sessionOn(backend, { ...ALLOW_ALL, "keep.txt": "kept\n" });
    try {
      const call = await session.run("bash", { command: "rm keep.txt", description: "Removes", background: true });
      expect(call.status).toBe("error");
      expect(session.jobs!.list()).toEqual([]);
    } finally {
      await dispose();
    }
  });
});

describe("the model hears of a job's end without polling", () => {
  it("gets a notice with the job's output before its next step", async () => {
    const { session, dispose } = await sessionOn("node", {
      "opencode.json": JSON.stringify({ permissions: [{ action: "*", resource: "*", effect: "allow" }] }),
    });
    try {
      const model = mockModel([
        streamStep({ calls: [{ tool: "shell", input: { command: "echo built-ok", background: true } }] }),
        streamStep({ calls: [{ tool: "shell", input: { command: "sleep 1" } }] }),
        streamStep({ text: ["noted"] }),
      ]);
      const { end } = await loopOnce(session, resolved(model), "build it in the background");
      expect(end).toBe("done");
      const requests = model.doStreamCalls.map(promptText);
      expect(requests[1]).not.toContain("background_job");
      expect(requests[2]).toContain('<background_job id=\\"job_');
      expect(requests[2]).toContain("completed with exit code 0");
      expect(requests[2]).toContain("built-ok");
    } finally {
      await dispose();
    }
  });
});
