/** The frame's address options and its origin check: what embed.js writes is what the frame reads. */
import { describe, expect, it } from "vitest";
import { readFrameParams } from "../../src/embed/frame-params.js";
import { originAllowed } from "../../src/embed/frame-server.js";
import { frameUrl } from "../../src/embed/protocol.js";

describe("frame address", () => {
  it("round-trips every option embed.js sets", () => {
    const url = frameUrl("https://wb.example/app/", {
      view: "terminal",
      theme: "light",
      readOnly: true,
      clickToLoad: true,
      autoHeight: true,
      origins: ["https://docs.example", "http://localhost:3000"],
    });
    expect(url.startsWith("https://wb.example/app/?embed=1&")).toBe(true);
    expect(readFrameParams(new URL(url).search)).toEqual({
      view: "terminal",
      theme: "light",
      readOnly: true,
      clickToLoad: true,
      autoHeight: true,
      origins: ["https://docs.example", "http://localhost:3000"],
    });
  });

  it("unknown values fall back instead of failing", () => {
    expect(readFrameParams("?embed=1&view=sideways&theme=sepia")).toEqual({
      view: undefined,
      theme: undefined,
      readOnly: false,
      clickToLoad: false,
      autoHeight: false,
      origins: [],
    });
  });
});

describe("origin allow-list", () => {
  it("an exact origin only: no prefixes, no other ports or schemes", () => {
    const list = ["https://docs.example"];
    expect(originAllowed("https://docs.example", list)).toBe(true);
    expect(originAllowed("https://docs.example.evil.com", list)).toBe(false);
    expect(originAllowed("http://docs.example", list)).toBe(false);
    expect(originAllowed("https://docs.example:8443", list)).toBe(false);
    expect(originAllowed("null", list)).toBe(false);
  });

  it("an empty list accepts any origin (a frame written by hand without origins=)", () => {
    expect(originAllowed("https://anywhere.example", [])).toBe(true);
  });
});
