// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from "@solidjs/testing-library";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PermissionRequest } from "../../src/tools/permission/types.js";
import { PermissionPrompt } from "../../src/ui/tools/PermissionPrompt.js";

afterEach(cleanup);

const request = (overrides: Partial<PermissionRequest> = {}): PermissionRequest => ({
  id: "per_1",
  sessionID: "ses_1",
  permission: "bash",
  patterns: ["rm -rf build"],
  always: ["rm *"],
  metadata: {},
  ...overrides,
});

describe("contract: a prompt's buttons answer it", () => {
  it("Allow once replies once", () => {
    const onReply = vi.fn();
    render(() => <PermissionPrompt request={request()} position={1} total={1} onReply={onReply} />);
    fireEvent.click(screen.getByRole("button", { name: "Allow once" }));
    expect(onReply).toHaveBeenCalledWith("once");
  });

  it("Always allow replies always and shows exactly the patterns it will remember", () => {
    const onReply = vi.fn();
    render(() => <PermissionPrompt request={request({ always: ["rm *", "ls *"] })} position={1} total={1} onReply={onReply} />);
    expect(screen.getByTestId("allow-always").textContent).toContain("(bash: rm *, ls *)");
    fireEvent.click(screen.getByTestId("allow-always"));
    expect(onReply).toHaveBeenCalledWith("always", undefined, false);
  });

  it("Always allow with the box ticked asks for the patterns to be saved to the workspace config too", () => {
    const onReply = vi.fn();
    render(() => <PermissionPrompt request={request()} position={1} total={1} onReply={onReply} />);
    fireEvent.click(screen.getByTestId("save-always"));
    fireEvent.click(screen.getByTestId("allow-always"));
    expect(onReply).toHaveBeenCalledWith("always", undefined, true);
  });

  it("Reject replies reject with the message typed for the caller", () => {
    const onReply = vi.fn();
    render(() => <PermissionPrompt request={request()} position={1} total={1} onReply={onReply} />);
    fireEvent.input(screen.getByLabelText("Rejection message"), { target: { value: "use the build script" } });
    fireEvent.click(screen.getByRole("button", { name: "Reject" }));
    expect(onReply).toHaveBeenCalledWith("reject", "use the build script");
  });
});

describe("contract: a prompt shows what is at stake", () => {
  it("says where it stands in the queue", () => {
    render(() => <PermissionPrompt request={request()} position={2} total={3} onReply={() => undefined} />);
    expect(screen.getByText("2 of 3")).toBeTruthy();
  });

  it("bash: the command itself, from the call's input", () => {
    render(() => <PermissionPrompt request={request()} input={{ command: "rm -rf build && ls" }} position={1} total={1} onReply={() => undefined} />);
    expect(screen.getByTestId("prompt-command").textContent).toBe("rm -rf build && ls");
    expect(screen.getByTestId("prompt-patterns").textContent).toBe("rm -rf build");
  });

  it("external_directory: the folder outside the workspace", () => {
    render(() => <PermissionPrompt request={request({ permission: "external_directory", patterns: ["/etc/*"], metadata: { parentDir: "/etc" } })} position={1} total={1} onReply={() => undefined} />);
    expect(screen.getByTestId("prompt-folder").textContent).toBe("/etc");
  });

  it("edit: the proposed diff, with markup in it kept as text", () => {
    const diff = "--- a.html\n+++ a.html\n@@ -1 +1 @@\n-<b>x</b>\n+<img src=x onerror=alert(1)>\n";
    const { container } = render(() => <PermissionPrompt request={request({ permission: "edit", patterns: ["a.html"], metadata: { diff } })} position={1} total={1} onReply={() => undefined} />);
    expect(screen.getByTestId("diff").textContent).toContain("+<img src=x onerror=alert(1)>");
    expect(container.querySelector("img, b")).toBeNull();
  });
});
