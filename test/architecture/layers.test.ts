/**
 * The house rules of docs/architecture.md as a check: reads the import graph of src and fails when a layer
 * imports one above it, or a folder the design keeps it from (tools never import a runtime backend, the
 * session or the UI; src/search imports nothing of ours). Fix the import rather than add an exception;
 * an exception must say why the rule does not fit.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  floorViolations,
  importCycles,
  importGraph,
  importsOf,
  layerOf,
  violations,
  type Exception,
  type ImportEdge,
} from "./import-graph.js";

const REPO = fileURLToPath(new URL("../../", import.meta.url));

/** Imports that break a rule on purpose. Empty today: keep it short. */
const EXCEPTIONS: Exception[] = [];

describe("the layers of src", () => {
  const graph = importGraph(REPO);

  it("reads a real graph (every layer has files that import)", () => {
    const layers = new Set(graph.map((edge) => layerOf(edge.from)));
    for (const layer of ["entry", "ui", "page", "cli", "session", "tools", "workspace", "runtime", "runtime-backend", "search", "lsp"])
      expect(layers).toContain(layer);
    expect(graph.length).toBeGreaterThan(500);
  });

  it("keeps every import within the rules of docs/architecture.md", () => {
    expect(violations(graph, EXCEPTIONS).map((violation) => violation.rule)).toEqual([]);
  });

  it("keeps every file of src/session on a floor, importing only its own floor and those below", () => {
    expect(floorViolations(graph).map((violation) => violation.rule)).toEqual([]);
  });

  it("has no import circle, type-only imports included", () => {
    expect(importCycles(graph)).toEqual([]);
  });

  it("lists only exceptions that are still needed, each with a reason", () => {
    const stale = EXCEPTIONS.filter(
      (exception) =>
        exception.reason.trim().length < 20 ||
        violations(graph.filter((edge) => edge.from === exception.from && edge.to === exception.to)).length === 0,
    );
    expect(stale).toEqual([]);
  });
});

describe("the checker", () => {
  const edge = (from: string, to: string, typeOnly = false): ImportEdge => ({ from, to, typeOnly });

  it("catches a layer importing one above it, a backend, or anything from the search leaf", () => {
    const bad = [
      edge("src/tools/read.ts", "src/session/host/tool-session.ts"),
      edge("src/tools/bash.ts", "src/runtime/embedded/index.ts"),
      edge("src/tools/bash.ts", "src/ui/App.tsx", true),
      edge("src/workspace/workspace.ts", "src/tools/shared/paths.ts"),
      edge("src/workspace/workspace.ts", "src/session/record/session-record.ts"),
      edge("src/session/agent/system-prompt.ts", "src/runtime/node/index.ts"),
      edge("src/session/agent/system-prompt.ts", "src/ui/App.tsx"),
      edge("src/runtime/types.ts", "src/tools/tool.ts"),
      edge("src/search/walk.ts", "src/runtime/types.ts", true),
      edge("src/runtime/embedded/index.ts", "src/runtime/node/index.ts"),
      edge("src/ui/App.tsx", "src/runtime/embedded/index.ts"),
      edge("src/cli/main.ts", "src/ui/App.tsx"),
    ];
    const found = violations(bad);
    expect(found.map((violation) => `${violation.from} -> ${violation.to}`)).toEqual(bad.map((e) => `${e.from} -> ${e.to}`));
    expect(found[0]!.rule).toBe("tools may not import session: src/tools/read.ts -> src/session/host/tool-session.ts");
    expect(found[9]!.rule).toBe("the embedded backend imports the node backend: backends share only src/runtime");
  });

  it("lets the UI name the types of lower layers but not load their code", () => {
    expect(violations([edge("src/ui/tools/PermissionPrompt.tsx", "src/tools/permission/types.ts", true)])).toEqual([]);
    const [found] = violations([edge("src/ui/tools/SettingsDialog.tsx", "src/tools/permission/evaluate.ts")]);
    expect(found!.rule).toBe(
      'ui may import only types from tools (use "import type"): src/ui/tools/SettingsDialog.tsx -> src/tools/permission/evaluate.ts',
    );
  });

  it("allows what the design allows", () => {
    const good = [
      edge("src/ui/App.tsx", "src/page/page-tools.ts"),
      edge("src/ui/App.tsx", "src/workspace/workspace.ts"),
      edge("src/session/host/tool-session.ts", "src/tools/registry.ts"),
      edge("src/session/agent/system-prompt.ts", "src/runtime/types.ts"),
      edge("src/tools/grep.ts", "src/search/search.ts"),
      edge("src/workspace/workspace.ts", "src/runtime/webcontainer/boot.ts"),
      edge("src/runtime/node/index.ts", "src/runtime/types.ts"),
      edge("src/runtime/types.ts", "src/search/service.ts"),
      edge("src/cli/main.ts", "src/runtime/embedded/index.ts"),
      edge("src/main.tsx", "src/ui/App.tsx"),
    ];
    expect(violations(good)).toEqual([]);
  });

  it("catches a planted upward import between the floors of src/session, and a file on no floor", () => {
    const planted = [
      edge("src/session/record/message.ts", "src/session/loop/loop.ts", true),
      edge("src/session/host/tool-session.ts", "src/session/chat/chat.ts"),
      edge("src/session/stray.ts", "src/session/record/ids.ts"),
    ];
    expect(floorViolations(planted).map((violation) => violation.rule)).toEqual([
      "the record floor imports the loop floor above it: src/session/record/message.ts -> src/session/loop/loop.ts",
      "the host floor imports the chat floor above it: src/session/host/tool-session.ts -> src/session/chat/chat.ts",
      "src/session/stray.ts is on no floor of src/session (record, provider, config, agent, host, loop, chat)",
    ]);
    const allowed = [
      edge("src/session/loop/loop.ts", "src/session/host/tool-session.ts"),
      edge("src/session/chat/chat.ts", "src/session/record/ids.ts"),
      edge("src/session/agent/load.ts", "src/session/config/workspace-config.ts"),
      edge("src/session/host/tool-runner.ts", "src/tools/registry.ts"),
    ];
    expect(floorViolations(allowed)).toEqual([]);
  });

  it("catches a planted circle, also one closed by a type import, and leaves a chain alone", () => {
    const chain = [edge("src/a.ts", "src/b.ts"), edge("src/b.ts", "src/c.ts"), edge("src/a.ts", "src/c.ts")];
    expect(importCycles(chain)).toEqual([]);
    const circle = [...chain, edge("src/c.ts", "src/a.ts", true), edge("src/x.ts", "src/y.ts"), edge("src/y.ts", "src/x.ts")];
    expect(importCycles(circle)).toEqual([
      ["src/a.ts", "src/b.ts", "src/c.ts"],
      ["src/x.ts", "src/y.ts"],
    ]);
    // The real graph with one planted type import that closes a circle.
    const planted = [...importGraph(REPO), edge("src/session/record/message.ts", "src/session/chat/chat.ts", true)];
    expect(importCycles(planted).length).toBe(1);
    expect(importCycles(planted)[0]).toContain("src/session/record/message.ts");
  });

  it("honours an exception only for the exact import it names", () => {
    const bad = edge("src/tools/read.ts", "src/session/record/session-record.ts");
    const exception = { from: bad.from, to: bad.to, reason: "a synthetic exception for this test" };
    expect(violations([bad], [exception])).toEqual([]);
    expect(violations([edge("src/tools/write.ts", "src/session/record/session-record.ts")], [exception])).toHaveLength(1);
  });

  it("parses static, re-export, dynamic and type imports, and tells type-only ones apart", () => {
    const text = [
      'import { a } from "../session/a.js";',
      'import type { B } from "../session/b.js";',
      'import { type C, type D } from "../session/c.js";',
      'import { type E, f } from "../session/e.js";',
      'export { g } from "../session/g.js";',
      'export type { H } from "../session/h.js";',
      'export * from "../session/star.js";',
      'import "../session/side-effect.js";',
      'const lazy = () => import("../session/lazy.js");',
      'type T = import("../session/t.js").T;',
      'import text from "./prompt.txt?raw";',
      'import { z } from "zod";',
    ].join("\n");
    expect(importsOf("src/tools/x.ts", text)).toEqual([
      edge("src/tools/x.ts", "src/session/a.ts"),
      edge("src/tools/x.ts", "src/session/b.ts", true),
      edge("src/tools/x.ts", "src/session/c.ts", true),
      edge("src/tools/x.ts", "src/session/e.ts"),
      edge("src/tools/x.ts", "src/session/g.ts"),
      edge("src/tools/x.ts", "src/session/h.ts", true),
      edge("src/tools/x.ts", "src/session/star.ts"),
      edge("src/tools/x.ts", "src/session/side-effect.ts"),
      edge("src/tools/x.ts", "src/session/lazy.ts"),
      edge("src/tools/x.ts", "src/session/t.ts", true),
      edge("src/tools/x.ts", "src/tools/prompt.txt"),
    ]);
    expect(violations(importsOf("src/tools/x.ts", text))).toHaveLength(10);
  });
});
