/** The small YAML-ish reader for markdown agents: what agent files hold, and clear errors for the rest. */
import { describe, expect, it } from "vitest";
import { FrontmatterError, parseFrontmatter } from "../../../src/session/agent/frontmatter.js";

const doc = (...lines: string[]) => ["---", ...lines, "---", "The body.", ""].join("\n");

describe("parseFrontmatter", () => {
  it("reads flat keys with strings, numbers, booleans and null, and keeps the body", () => {
    const { attributes, body } = parseFrontmatter(
      doc(
        "description: Reviews code for quality",
        "mode: subagent",
        "temperature: 0.1",
        "steps: 5",
        "hidden: true",
        "disable: False",
        "variant: ~",
        "color:",
      ),
    );
    expect(attributes).toEqual({
      description: "Reviews code for quality",
      mode: "subagent",
      temperature: 0.1,
      steps: 5,
      hidden: true,
      disable: false,
      variant: null,
      color: null,
    });
    expect(body).toBe("The body.\n");
  });

  it("reads nested maps to any depth, with quoted keys, in the order written", () => {
    const { attributes } = parseFrontmatter(
      doc(
        "tools:",
        "  write: false",
        "  bash: true",
        "permission:",
        '  "*": deny',
        "  bash:",
        '    "git *": ask',
        "    'rm ''x''': deny",
        "  edit: allow",
      ),
    );
    expect(attributes).toEqual({
      tools: { write: false, bash: true },
      permission: { "*": "deny", bash: { "git *": "ask", "rm 'x'": "deny" }, edit: "allow" },
    });
    expect(Object.keys(attributes.permission as object)).toEqual(["*", "bash", "edit"]);
  });

  it("handles quotes, escapes, comments and colons inside values", () => {
    const { attributes } = parseFrontmatter(
      doc(
        "# a comment line",
        'description: "Use it when: \\"reviewing\\" # not a comment"',
        "model: anthropic/claude-sonnet-4-5  # trailing comment",
        "prompt_hint: see http://example.com/x",
        "note: Use this agent when: reviewing PRs",
        "color: #ff0000",
        "quoted: '#ff0000'",
        "count: '5'",
      ),
    );
    expect(attributes).toEqual({
      description: 'Use it when: "reviewing" # not a comment',
      model: "anthropic/claude-sonnet-4-5",
      prompt_hint: "see http://example.com/x",
      note: "Use this agent when: reviewing PRs",
      // Unquoted, # starts a comment: YAML reads the value as null.
      color: null,
      quoted: "#ff0000",
      count: "5",
    });
  });

  it("folds a plain value continued on more-indented lines", () => {
    const { attributes } = parseFrontmatter(doc("description: Reviews code", "  for quality and", "  best practices", "mode: primary"));
    expect(attributes).toEqual({ description: "Reviews code for quality and best practices", mode: "primary" });
  });

  it("treats a file without frontmatter as all body, and accepts CRLF and a BOM", () => {
    expect(parseFrontmatter("Just a prompt.\n")).toEqual({ attributes: {}, body: "Just a prompt.\n" });
    expect(parseFrontmatter("\uFEFF---\r\nmode: all\r\n---\r\nBody\r\n")).toEqual({ attributes: { mode: "all" }, body: "Body\n" });
  });

  it.each([
    [["---", "mode: primary", "Body without a closing line"].join("\n"), 1, /never closed/],
    [doc("mode primary"), 2, /expected "key: value"/],
    [doc("tools:", "  - bash"), 3, /lists \(- item\) are not supported/],
    [doc("tools: [bash, read]"), 2, /lists \(\[a, b\]\) are not supported/],
    [doc("tools: { bash: true }"), 2, /flow maps/],
    [doc("description: |", "  long text"), 2, /block scalars/],
    [doc("permission:", "  *: deny"), 3, /quote it, e\.g\. "\*": \.\.\./],
    [doc("mode: primary", "mode: all"), 3, /appears twice/],
    [doc('description: "unclosed'), 2, /never closed/],
    [doc("permission:", "    bash: ask", "  edit: ask"), 4, /indented less than|unexpected indentation/],
    [doc("mode: primary", "\tsteps: 3"), 3, /tabs/],
    [doc('description: "bad \\q escape"'), 2, /unknown escape/],
  ])("names the line of a problem (%#)", (text, line, message) => {
    let caught: unknown;
    try {
      parseFrontmatter(text);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(FrontmatterError);
    expect((caught as FrontmatterError).line).toBe(line);
    expect((caught as Error).message).toMatch(message);
    expect((caught as Error).message).toContain(`frontmatter line ${line}:`);
  });
});
