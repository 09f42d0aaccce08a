import { describe, expect, it } from "vitest";
import { BASH_ARITY, bashArityPrefix } from "../../../src/tools/bash/index.js";

const words = (line: string) => line.split(" ").filter(Boolean);

describe("bashArityPrefix: the words that name a command", () => {
  it.each([
    ["git log --oneline", "git log"],
    ["git log --oneline -5", "git log"],
    ["npm run dev -- --port 3000", "npm run dev"],
    ["sudo rm -rf /", "sudo"],
    ["python -m venv x", "python -m"],
    ["git config --global user.name x", "git config --global"],
    ["docker compose up -d", "docker compose up"],
    ["docker ps -a", "docker ps"],
    ["kubectl rollout status deploy/x", "kubectl rollout status"],
    ["aws s3 ls s3://bucket", "aws s3 ls"],
    ["ls -la", "ls"],
    ["rm -rf build", "rm"],
    ["make", "make"],
    ["git", "git"],
    ["unknown-tool --flag value", "unknown-tool"],
    ["yarn run build --watch", "yarn run build"],
    ["bun x vitest", "bun x vitest"],
    ["cargo run --release", "cargo run --release"],
  ])("%s -> %s", (line, prefix) => {
    expect(bashArityPrefix(words(line)).join(" ")).toBe(prefix);
  });

  it("gives nothing for no words", () => {
    expect(bashArityPrefix([])).toEqual([]);
  });

  it("matches exactly, case included", () => {
    expect(bashArityPrefix(["Git", "log"])).toEqual(["Git"]);
    expect(bashArityPrefix(["git-log", "x"])).toEqual(["git-log"]);
  });

  it("holds OpenCode's 136 entries: 25 of one word, 64 of two, 47 of three", () => {
    const counts = [1, 2, 3].map((n) => [...BASH_ARITY.values()].filter((arity) => arity === n).length);
    expect(BASH_ARITY.size).toBe(136);
    expect(counts).toEqual([25, 64, 47]);
  });
});
