/**
 * V2's `subagent` with `background: true` through the loop: the call returns at once with a job id while
 * the child works; the parent's turn ends without waiting; the child's answer reaches the model before its
 * next step as V2's `<subagent sessionID=... state="completed">` notice; Stop on the job stops the child
 * (state "stopped"); a denied or unknown agent is refused in the foreground and starts no job.
 */
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { convertArrayToReadableStream, MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { subagentParameters } from "../../src/tools/subagent.js";
import { loopOnce, resolved, streamStep, testAgent } from "../support/loop.js";
import { sessionWith } from "../support/tool-session.js";

const v2 = () => ({ "opencode.json": JSON.stringify({ permissions: [{ action: "*", resource: "*", effect: "allow" }] }) });

/** The text of the last user message a request carried (the child's task, the person's words, or a notice). */
function lastUserText(options: LanguageModelV4CallOptions): string {
  const users = options.prompt.filter((message) => message.role === "user");
  const last = users.at(-1);
  if (!last || typeof last.content === "string") return "";
  return last.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

/**
 * A model that plays both sides: the parent starts the subagent in the background, then carries on; the
 * child answers only once the test releases it; every parent request is kept to look at what it was told.
 */
function twoSidedModel(agent = "general") {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const parentRequests: string[] = [];
  let parentSteps = 0;
  const model = new MockLanguageModelV4({
    doStream: async (options: LanguageModelV4CallOptions) => {
      const last = lastUserText(options);
      if (last === "investigate the logs") {
        await released;
        return { stream: convertArrayToReadableStream(streamStep({ text: ["the logs say: disk full"] })) };
      }
      parentRequests.push(JSON.stringify(options.prompt));
      const step =
        parentSteps++ === 0
          ? streamStep({
              calls: [
                { tool: "subagent", input: { agent, description: "Read the logs", prompt: "investigate the logs", background: true } },
              ],
            })
          : streamStep({ text: [`parent step ${parentSteps}`] });
      return { stream: convertArrayToReadableStream(step) };
    },
  });
  return { model, release, parentRequests };
}

describe("contract: a subagent in the background", () => {
  it("offers background as an optional flag beside V2's other parameters", () => {
    expect(Object.keys(subagentParameters.shape)).toEqual(["agent", "description", "prompt", "sessionID", "background"]);
    expect(subagentParameters.safeParse({ agent: "general", description: "d", prompt: "p", background: true }).success).toBe(true);
    expect(subagentParameters.safeParse({ agent: "general", description: "d", prompt: "p", background: "yes" }).success).toBe(false);
  });

  it("returns at once with a job, and its answer reaches the model's next step as V2's notice", async () => {
    const { session, dispose } = await sessionWith(v2());
    try {
      const { model, release, parentRequests } = twoSidedModel();
      const first = await loopOnce(session, resolved(model), "go");
      expect(first.end).toBe("done");
      const [call] = session.session.calls;
      expect(call).toMatchObject({ tool: "subagent", status: "completed" });
      expect(call!.output).toMatch(/^<subagent job="[^"]+" state="running">/);
      const jobs = session.jobs!;
      const [job] = jobs.list();
      expect(job).toMatchObject({ kind: "subagent", status: "running", command: "@general: Read the logs" });

      release();
      const ended = await jobs.ended(job!.id);
      const child = session.session.children![0]!;
      expect(ended).toMatchObject({ status: "completed", sessionID: child.id });

      await loopOnce(session, resolved(model), "what did it find?");
      const told = parentRequests.at(-1)!;
      expect(told).toContain(
        `<subagent sessionID=\\"${child.id}\\" state=\\"completed\\" job=\\"${job!.id}\\">\\nthe logs say: disk full\\n</subagent>`,
      );
      // Told once: a further step does not repeat it.
      await loopOnce(session, resolved(model), "anything else?");
      expect(parentRequests.at(-1)!.split("the logs say: disk full").length - 1).toBe(1);
    } finally {
      await dispose();
    }
  });

  it("stops the child when the job is stopped, and says so", async () => {
    const { session, dispose } = await sessionWith(v2());
    try {
      const { model, parentRequests } = twoSidedModel();
      await loopOnce(session, resolved(model), "go");
      const jobs = session.jobs!;
      const [job] = jobs.list();
      expect(await jobs.stop(job!.id)).toBe(true);
      expect(jobs.get(job!.id)).toMatchObject({ status: "stopped" });
      await loopOnce(session, resolved(model), "and?");
      expect(parentRequests.at(-1)).toMatch(/<subagent sessionID=\\"[^"\\]*\\" state=\\"stopped\\" job=/);
      expect(parentRequests.at(-1)).not.toContain("disk full");
    } finally {
      await dispose();
    }
  });

  it("asks the subagent permission before it starts: a deny starts no job and no child", async () => {
    const { session, dispose } = await sessionWith(v2());
    try {
      const { model } = twoSidedModel();
      const agent = testAgent("build", {}, [{ permission: "task", pattern: "general", action: "deny" }]);
      await loopOnce(session, resolved(model), "go", { agent });
      expect(session.session.calls[0]).toMatchObject({ tool: "subagent", status: "error" });
      expect(session.jobs!.list()).toEqual([]);
      expect(session.session.children ?? []).toEqual([]);
    } finally {
      await dispose();
    }
  });

  it("asks before it starts, in the foreground: a rejected ask starts no job and no child", async () => {
    const { session, dispose } = await sessionWith(v2());
    try {
      const { model } = twoSidedModel();
      const asked: string[][] = [];
      session.bus.subscribe("permission.asked", (request) => {
        asked.push([request.permission, ...request.patterns]);
        session.permissions.reply(request.id, "reject");
      });
      const agent = testAgent("build", {}, [{ permission: "task", pattern: "general", action: "ask" }]);
      await loopOnce(session, resolved(model), "go", { agent });
      expect(asked).toEqual([["task", "general"]]);
      expect(session.session.calls[0]).toMatchObject({ tool: "subagent", status: "error" });
      expect(session.jobs!.list()).toEqual([]);
      expect(session.session.children ?? []).toEqual([]);
    } finally {
      await dispose();
    }
  });

  it("refuses an unknown agent in the foreground, naming those it may start", async () => {
    const { session, dispose } = await sessionWith(v2());
    try {
      const { model } = twoSidedModel("nobody");
      await loopOnce(session, resolved(model), "go");
      const [call] = session.session.calls;
      expect(call).toMatchObject({ tool: "subagent", status: "error" });
      expect(call!.error).toMatch(/Unknown agent type: nobody .*general/);
      expect(session.jobs!.list()).toEqual([]);
    } finally {
      await dispose();
    }
  });
});
