// @vitest-environment happy-dom
import { cleanup, render } from "@solidjs/testing-library";
import { createSignal } from "solid-js";
import { afterEach, describe, expect, it } from "vitest";
import { Markdown } from "../../src/ui/chat/Markdown.js";

afterEach(cleanup);

const view = (text: string) => render(() => <Markdown text={text} />).container.querySelector("[data-testid=markdown]")!;

describe("contract: markdown renders the common blocks and inlines as elements", () => {
  it("headings, emphasis, strong, inline code, code blocks, lists, quotes, tables and rules", () => {
    const md = view(
      "# Title\n\nSome *soft* and **bold** and `x < y` text.\n\n```ts\nconst a = 1 < 2;\n```\n\n- one\n- two\n\n3. three\n4. four\n\n> quoted\n\n| a | b |\n|:-|-:|\n| 1 | 2 |\n\n---\n",
    );
    expect(md.querySelector("h1")?.textContent).toBe("Title");
    expect(md.querySelector("em")?.textContent).toBe("soft");
    expect(md.querySelector("strong")?.textContent).toBe("bold");
    expect(md.querySelector("p code")?.textContent).toBe("x < y");
    expect(md.querySelector("pre code.language-ts")?.textContent).toBe("const a = 1 < 2;");
    expect([...md.querySelectorAll("ul > li")].map((li) => li.textContent)).toEqual(["one", "two"]);
    expect(md.querySelector("ol")?.getAttribute("start")).toBe("3");
    expect(md.querySelector("blockquote p")?.textContent).toBe("quoted");
    expect([...md.querySelectorAll("th")].map((th) => th.textContent)).toEqual(["a", "b"]);
    expect((md.querySelectorAll("td")[1] as HTMLElement).style.textAlign).toBe("right");
    expect(md.querySelector("hr")).not.toBeNull();
  });

  it("character references read as the characters they stand for, once", () => {
    const md = view("a &lt; b &amp;&amp; c &#169;");
    expect(md.textContent).toBe("a < b && c ©");
    expect(md.querySelector("b")).toBeNull();
  });

  it("safe links open in a new tab without leaking the page", () => {
    const link = view("see [the docs](https://example.com/docs) or <mailto:a@b.c>").querySelectorAll("a");
    expect(link[0]!.getAttribute("href")).toBe("https://example.com/docs");
    expect(link[0]!.getAttribute("target")).toBe("_blank");
    expect(link[0]!.getAttribute("rel")).toBe("noopener noreferrer");
    expect(link[1]!.getAttribute("href")).toBe("mailto:a@b.c");
  });
});

describe("contract: hostile input stays text", () => {
  it("inline HTML shows as its source and makes no element", () => {
    const md = view('hello <img src=x onerror="alert(1)"> and <b>bold?</b>');
    expect(md.querySelector("img, b")).toBeNull();
    expect(md.textContent).toContain('<img src=x onerror="alert(1)">');
    expect(md.textContent).toContain("<b>bold?</b>");
  });

  it("an HTML block shows as its source", () => {
    const md = view('<div onclick="steal()"><script>alert(1)</script></div>\n\nafter');
    expect(md.querySelector("div[onclick], script")).toBeNull();
    expect(md.textContent).toContain('<div onclick="steal()"><script>alert(1)</script></div>');
  });

  it("javascript:, data: and reference-style javascript: links get no href", () => {
    const md = view(
      "[a](javascript:alert(1)) [b](data:text/html,<script>x</script>) [c][r] [d](JaVaScRiPt:alert(2))\n\n[r]: javascript:alert(3)",
    );
    expect(md.querySelectorAll("a").length).toBe(0);
    expect(md.textContent).toContain("a b c d");
    expect(md.querySelector("[href]")).toBeNull();
  });

  it("images are not loaded: they show as a link to what they point at", () => {
    const md = view("![tracker](https://evil.example/pixel.png?secret=1) ![x](javascript:alert(1))");
    expect(md.querySelector("img")).toBeNull();
    const links = md.querySelectorAll("a");
    expect(links.length).toBe(1);
    expect(links[0]!.textContent).toBe("[image: tracker]");
  });

  it("a code block keeps markup as text", () => {
    const md = view("```html\n<img src=x onerror=alert(1)>\n```");
    expect(md.querySelector("img")).toBeNull();
    expect(md.querySelector("pre")?.textContent).toBe("<img src=x onerror=alert(1)>");
  });
});

describe("contract: streaming text re-renders, rebuilding only what changed", () => {
  it("text growing at its end updates the view and leaves earlier blocks in place", () => {
    const [text, setText] = createSignal("# Plan\n\nFirst");
    const { container } = render(() => <Markdown text={text()} />);
    const heading = container.querySelector("h1");
    expect(container.querySelector("p")?.textContent).toBe("First");
    setText("# Plan\n\nFirst, read the **file**");
    expect(container.querySelector("p")?.textContent).toBe("First, read the file");
    expect(container.querySelector("strong")?.textContent).toBe("file");
    expect(container.querySelector("h1")).toBe(heading);
    setText("# Plan\n\nFirst, read the **file**\n\n- then edit");
    expect(container.querySelector("li")?.textContent).toBe("then edit");
    expect(container.querySelector("h1")).toBe(heading);
  });
});
