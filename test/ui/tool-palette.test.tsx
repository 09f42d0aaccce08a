// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from "@solidjs/testing-library";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { ToolEntry } from "../../src/page/page-tools.js";
import { ToolPalette } from "../../src/ui/tools/ToolPalette.js";

afterEach(cleanup);

const tools: ToolEntry[] = [
  {
    id: "demo",
    description: "A demo tool\nmore",
    parameters: z.object({
      path: z.string().describe("Where to look"),
      limit: z.number().optional(),
      all: z.boolean().optional(),
      mode: z.enum(["fast", "slow"]),
      globs: z.array(z.string()).optional(),
    }),
  },
  { id: "other", description: "Another tool", parameters: z.object({}) },
];

function openDemo(onRun = vi.fn()) {
  render(() => <ToolPalette tools={tools} onRun={onRun} onClose={() => undefined} />);
  fireEvent.click(screen.getByRole("option", { name: /demo/ }));
  return onRun;
}

describe("contract: the palette's form comes from the tool's schema", () => {
  it("filters the tools by what is typed", () => {
    render(() => <ToolPalette tools={tools} onRun={() => undefined} onClose={() => undefined} />);
    expect(screen.getAllByRole("option")).toHaveLength(2);
    fireEvent.input(screen.getByLabelText("Filter tools"), { target: { value: "oth" } });
    expect(screen.getAllByRole("option").map((option) => option.id)).toEqual(["palette-tool-other"]);
  });

  it("renders a control per field, of the field's kind, with its description", () => {
    openDemo();
    expect((document.getElementById("tool-field-path") as HTMLInputElement).type).toBe("text");
    expect((document.getElementById("tool-field-all") as HTMLInputElement).type).toBe("checkbox");
    expect(document.getElementById("tool-field-mode")!.tagName).toBe("SELECT");
    expect(document.getElementById("tool-field-globs")!.tagName).toBe("TEXTAREA");
    expect(screen.getByText("Where to look")).toBeTruthy();
  });

  it("shows inline errors for a missing field and a bad number, and does not run", () => {
    const onRun = openDemo();
    fireEvent.input(document.getElementById("tool-field-limit")!, { target: { value: "soon" } });
    fireEvent.submit(screen.getByTestId("tool-form"));
    expect(screen.getByTestId("field-error-path").textContent).toBe("Required: fill this in.");
    expect(screen.getByTestId("field-error-limit").textContent).toContain("not a number");
    expect(document.getElementById("tool-field-path")!.getAttribute("aria-invalid")).toBe("true");
    expect(onRun).not.toHaveBeenCalled();
  });

  it("runs with typed arguments once the form is valid", () => {
    const onRun = openDemo();
    fireEvent.input(document.getElementById("tool-field-path")!, { target: { value: "src" } });
    fireEvent.input(document.getElementById("tool-field-limit")!, { target: { value: "5" } });
    fireEvent.change(document.getElementById("tool-field-mode")!, { target: { value: "slow" } });
    fireEvent.input(document.getElementById("tool-field-globs")!, { target: { value: "*.ts\n*.tsx" } });
    fireEvent.submit(screen.getByTestId("tool-form"));
    expect(onRun).toHaveBeenCalledWith("demo", { path: "src", limit: 5, mode: "slow", globs: ["*.ts", "*.tsx"] });
  });
});
