/**
 * OpenCode V2's subagent tool through the loop: it answers in V2's form with the child's sessionID, a V2
 * config limits nesting to experimental.subagent_depth (default 1), and a V1 config keeps V1's behaviour.
 */
import { describe, expect, it } from "vitest";
import { loopOnce, mockModel, resolved, streamStep } from "../support/loop.js";
import { sessionWith } from "../support/tool-session.js";

const nested = (extra: Record<string, unknown> = {}) => ({
  "opencode.json": JSON.stringify({
    permissions: [{ action: "*", resource: "*", effect: "allow" }],
    // The general agent's own rules speak of subagent, so only the depth limit can stop it nesting.
    agents: { general: { permissions: [{ action: "subagent", resource: "*", effect: "allow" }] } },
    ...extra,
  }),
});

function script() {
  return mockModel([
    streamStep({ calls: [{ tool: "subagent", input: { agent: "general", description: "Look around", prompt: "look" } }] }),
    streamStep({ calls: [{ tool: "subagent", input: { agent: "explore", description: "Deeper", prompt: "deeper" } }] }),
    streamStep({ text: ["child answer"] }),
    streamStep({ text: ["grandchild answer"] }),
    streamStep({ text: ["parent done"] }),
  ]);
}

describe("contract: subagent under V2's name", () => {
  it("answers as <subagent sessionID=... state=completed>, and a subagent may not start another at the default depth 1", async () => {
    const { session, dispose } = await sessionWith(nested());
    try {
      const { end } = await loopOnce(session, resolved(script()), "go");
      expect(end).toBe("done");
      const [outer] = session.session.calls;
      const child = session.session.children![0]!;
      expect(outer).toMatchObject({ tool: "subagent", status: "completed" });
      expect(outer!.output).toBe(`<subagent sessionID="${child.id}" state="completed">\nchild answer\n</subagent>`);
      const [inner] = child.calls;
      expect(inner).toMatchObject({ tool: "subagent", status: "error" });
      expect(inner!.error).toContain("Subagent depth limit reached (1)");
      expect(child.children ?? []).toEqual([]);
    } finally {
      await dispose();
    }
  });

  it("lets experimental.subagent_depth: 2 nest one level more", async () => {
    const { session, dispose } = await sessionWith(nested({ experimental: { subagent_depth: 2 } }));
    try {
      await loopOnce(session, resolved(script()), "go");
      const child = session.session.children![0]!;
      expect(child.calls[0]).toMatchObject({ tool: "subagent", status: "completed" });
      expect(child.children).toHaveLength(1);
    } finally {
      await dispose();
    }
  });

  it("refuses a bad subagent_depth at its path", async () => {
    await expect(sessionWith(nested({ experimental: { subagent_depth: 0 } }))).rejects.toThrow(
      /experimental\.subagent_depth: must be 1 or more/,
    );
  });
});
