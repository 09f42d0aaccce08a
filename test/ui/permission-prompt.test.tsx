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
    render(() => (
      <PermissionPrompt request={request()} input={{ command: "rm -rf build && ls" }} position={1} total={1} onReply={() => undefined} />
    ));
    expect(screen.getByTestId("prompt-command").textContent).toBe("rm -rf build && ls");
    expect(screen.getByTestId("prompt-patterns").textContent).toBe("rm -rf build");
  });

  it("external_directory: the folder outside the workspace", () => {
    render(() => (
      <PermissionPrompt
        request={request({ permission: "external_directory", patterns: ["/etc/*"], metadata: { parentDir: "/etc" } })}
        position={1}
        total={1}
        onReply={() => undefined}
      />
    ));
    expect(screen.getByTestId("prompt-folder").textContent).toBe("/etc");
  });

  it("edit: the proposed diff, with markup in it kept as text", () => {
    const diff = "--- a.html\n+++ a.html\n@@ -1 +1 @@\n-<b>x</b>\n+<img src=x onerror=alert(1)>\n";
    const { container } = render(() => (
      <PermissionPrompt
        request={request({ permission: "edit", patterns: ["a.html"], metadata: { diff } })}
        position={1}
        total={1}
        onReply={() => undefined}
      />
    ));
    expect(screen.getByTestId("diff").textContent).toContain("+<img src=x onerror=alert(1)>");
    expect(container.querySelector("img, b")).toBeNull();
  });
});

describe("contract: a prompt says who asks", () => {
  it("shows the asking call's tool, title and input; a call with no title yet is named from its input", () => {
    render(() => (
      <PermissionPrompt
        request={request({ permission: "external_directory", patterns: ["/etc/*"], tool: { messageID: "m", callID: "call_7" } })}
        call={{ id: "call_7", tool: "read", title: "", input: { filePath: "/etc/hosts", offset: 10 } }}
        position={2}
        total={5}
        onReply={() => undefined}
      />
    ));
    const prompt = screen.getByTestId("permission-prompt");
    expect(prompt.getAttribute("data-call-id")).toBe("call_7");
    expect(screen.getByTestId("prompt-asker").textContent).toContain("Asked by read");
    expect(screen.getByTestId("prompt-title").textContent).toBe("/etc/hosts");
    expect(screen.getByTestId("prompt-input").textContent).toBe("filePath: /etc/hosts\noffset: 10");
    expect(prompt.getAttribute("aria-label")).toBe("Permission external_directory for read: /etc/hosts");
  });

  it("a bash call's title is its description, and its command is shown once, as the command", () => {
    render(() => (
      <PermissionPrompt
        request={request({ tool: { messageID: "m", callID: "c" } })}
        call={{ id: "c", tool: "bash", title: "", input: { command: "rm -rf build", description: "Clean the build" } }}
        position={1}
        total={1}
        onReply={() => undefined}
      />
    ));
    expect(screen.getByTestId("prompt-title").textContent).toBe("Clean the build");
    expect(screen.getByTestId("prompt-command").textContent).toBe("rm -rf build");
    expect(screen.queryByTestId("prompt-input")).toBeNull();
  });

  it("Show the call scrolls to the call's card and marks it", () => {
    const card = document.createElement("article");
    card.setAttribute("data-testid", "call-card");
    card.setAttribute("data-call-id", "c9");
    const scrolled = vi.fn();
    card.scrollIntoView = scrolled;
    document.body.append(card);
    render(() => (
      <PermissionPrompt
        request={request({ tool: { messageID: "m", callID: "c9" } })}
        call={{ id: "c9", tool: "bash", title: "t", input: { command: "ls" } }}
        position={1}
        total={1}
        onReply={() => undefined}
      />
    ));
    fireEvent.click(screen.getByTestId("prompt-show-call"));
    expect(scrolled).toHaveBeenCalled();
    expect(card.classList.contains("jumped-to")).toBe(true);
    expect(document.activeElement).toBe(card);
    card.remove();
  });
});
