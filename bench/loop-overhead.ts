/**
 * The loop's own cost per model step: a scripted step with one call to a trivial tool, run through our
 * loop (tool part, runner, permissions, message parts, replay of the history) against the same steps
 * driven straight through the SDK's streamText (the tool's execute run by the SDK, the history carried
 * by hand). Both replay the growing conversation, so the ratio is what the loop adds.
 */
import { jsonSchema, streamText, tool, type ModelMessage } from "ai";
import { z } from "zod";
import { createEmbeddedRuntime } from "../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../src/runtime/embedded/node-worker-factory.js";
import { ascendingId } from "../src/session/record/ids.js";
import { runLoop } from "../src/session/loop/loop.js";
import { ScriptedLanguageModel, type Script } from "../src/session/provider/scripted.js";
import type { ModelInfo } from "../src/session/provider/types.js";
import { ToolSession } from "../src/session/host/tool-session.js";
import { builtinTools } from "../src/tools/builtins.js";
import { agentRules } from "../src/tools/permission/agents.js";
import { define } from "../src/tools/tool.js";

const Noop = define("noop", {
  description: "Does nothing and says so.",
  parameters: z.object({ n: z.number() }),
  async execute(args) {
    return { title: "noop", output: `noop ${args.n}`, metadata: {} };
  },
});

const info: ModelInfo = {
  providerID: "scripted",
  modelID: "bench",
  name: "Bench",
  limit: { context: 0, output: 0 },
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  attachment: false,
  reasoning: false,
};

function script(steps: number): Script {
  return {
    version: 1,
    steps: Array.from({ length: steps }, (_, n) => ({ text: `Step ${n}: calling the tool.`, toolCalls: [{ tool: "noop", input: { n } }] })),
  };
}

async function throughLoop(steps: number): Promise<number> {
  const runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
  try {
    const session = await ToolSession.open({ runtime, dataDir: "/data", home: "/home/user", builtins: builtinTools, trusted: false });
    session.registry.register(Noop);
    const id = ascendingId("msg");
    session.session.messages.push({
      id,
      sessionID: session.session.id,
      role: "user",
      time: { created: Date.now() },
      agent: "build",
      model: info,
      parts: [{ id: ascendingId("prt"), messageID: id, type: "text", text: "go" }],
    });
    const agent = {
      name: "build",
      mode: "primary" as const,
      builtIn: true,
      hidden: false,
      options: {},
      steps,
      permission: agentRules("build", { dataDir: "/data", toolOutputGlob: "/data/out/*" }),
    };
    const started = performance.now();
    await runLoop({
      tools: session,
      agent,
      model: { info, language: new ScriptedLanguageModel(script(steps)) },
      system: ["bench"],
      signal: new AbortController().signal,
      changed: () => undefined,
      status: () => undefined,
    });
    const elapsed = performance.now() - started;
    if (session.session.calls.length !== steps) throw new Error(`the loop ran ${session.session.calls.length} calls, not ${steps}`);
    return elapsed / steps;
  } finally {
    await runtime.dispose();
  }
}

async function throughSdk(steps: number): Promise<number> {
  const model = new ScriptedLanguageModel(script(steps));
  const tools = {
    noop: tool({
      description: "Does nothing and says so.",
      inputSchema: jsonSchema<{ n: number }>(z.toJSONSchema(z.object({ n: z.number() })) as Parameters<typeof jsonSchema>[0]),
      execute: async (args: { n: number }) => `noop ${args.n}`,
    }),
  };
  const messages: ModelMessage[] = [{ role: "user", content: "go" }];
  const started = performance.now();
  for (let i = 0; i < steps; i++) {
    const result = streamText({ model, instructions: "bench", messages, tools, maxRetries: 0 });
    for await (const part of result.stream) void part;
    messages.push(...(await result.response).messages);
  }
  return (performance.now() - started) / steps;
}

export async function benchLoopOverhead(steps = 100, rounds = 3) {
  await throughLoop(10);
  await throughSdk(10);
  const loop: number[] = [];
  const sdk: number[] = [];
  for (let i = 0; i < rounds; i++) {
    loop.push(await throughLoop(steps));
    sdk.push(await throughSdk(steps));
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const loopMs = median(loop);
  const sdkMs = median(sdk);
  return {
    benchmark: "loop-overhead",
    reference: "the same scripted steps straight through streamText, same run",
    results: {
      steps,
      loopMsPerStep: Number(loopMs.toFixed(3)),
      sdkMsPerStep: Number(sdkMs.toFixed(3)),
      ratio: Number((loopMs / sdkMs).toFixed(2)),
      overheadMsPerStep: Number((loopMs - sdkMs).toFixed(3)),
    },
  };
}
