// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from "@solidjs/testing-library";
import { createTwoFilesPatch } from "diff";
import { afterEach, describe, expect, it } from "vitest";
import { DiffView } from "../../src/ui/tools/DiffView.js";

afterEach(cleanup);

const patch = createTwoFilesPatch("/w/a.txt", "/w/a.txt", "one\ntwo\nthree\n", "one\nTWO\nthree\nfour\n");

const cells = (row: Element) => [...row.querySelectorAll("td")].map((cell) => cell.textContent);

describe("contract: a diff reads unified or side by side", () => {
  it("unified: one line element per diff line, coloured by its mark", () => {
    render(() => <DiffView diff={patch} label="Diff of a.txt" />);
    const pre = screen.getByTestId("diff");
    const classes = [...pre.children].map((span) => `${span.className}:${span.textContent!.trimEnd()}`);
    expect(classes).toContain("diff-del:-two");
    expect(classes).toContain("diff-add:+TWO");
    expect(classes).toContain("diff-hunk:@@ -1,3 +1,4 @@");
    expect(screen.getByRole("button", { name: "Unified" }).getAttribute("aria-pressed")).toBe("true");
  });

  it("side by side: old left, new right, a changed line facing its new version, with line numbers", async () => {
    render(() => <DiffView diff={patch} />);
    fireEvent.click(screen.getByRole("button", { name: "Side by side" }));
    expect(screen.queryByTestId("diff")).toBeNull();
    expect(screen.getByTestId("diff-box").getAttribute("data-mode")).toBe("side-by-side");
    const rows = (await screen.findAllByTestId("diff-row")).map(cells);
    expect(rows).toEqual([
      ["1", "one", "1", "one"],
      ["2", "two", "2", "TWO"],
      ["3", "three", "3", "three"],
      ["", "", "4", "four"],
    ]);
    fireEvent.click(screen.getByRole("button", { name: "Unified" }));
    expect(screen.getByTestId("diff")).toBeTruthy();
  });

  it("side by side marks removed and added cells so they can be told apart", async () => {
    render(() => <DiffView diff={patch} mode="side-by-side" />);
    const changed = (await screen.findAllByTestId("diff-row"))[1]!;
    const kinds = [...changed.querySelectorAll("td.text")].map((cell) => cell.className);
    expect(kinds).toEqual(["text old del", "text new add"]);
  });
});

describe("contract: a diff that is not one", () => {
  it("says it has no hunks to show side by side", async () => {
    render(() => <DiffView diff="not a diff at all" mode="side-by-side" />);
    expect(await screen.findByText("This diff has no hunks to show side by side.")).toBeTruthy();
  });
});

describe("security: a diff of markup stays text in both views", () => {
  it("creates no element from the files' contents", async () => {
    const evil = createTwoFilesPatch("x.html", "x.html", "<b>old</b>\n", '<img src=x onerror="alert(1)">\n');
    const { container } = render(() => <DiffView diff={evil} />);
    expect(container.querySelector("img, b")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Side by side" }));
    const [first] = await screen.findAllByTestId("diff-row");
    expect(container.querySelector("img, b")).toBeNull();
    expect(cells(first!)).toEqual(["1", "<b>old</b>", "1", '<img src=x onerror="alert(1)">']);
  });
});
