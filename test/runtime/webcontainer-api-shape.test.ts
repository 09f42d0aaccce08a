/**
 * The stand-in is only worth something if the adapter's idea of the API matches the real package.
 * The assignment below is checked by `tsc` (npm test runs it): if @webcontainer/api changes the
 * shape the adapter uses, typecheck fails.
 */
import type { WebContainer } from "@webcontainer/api";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { WcApi, WcInstance } from "../../src/runtime/webcontainer/api.js";

describe("webcontainer: the adapter's API is the real package's", () => {
  it("the real WebContainer fits the interface the adapter and stand-in share", async () => {
    expectTypeOf<WebContainer>().toExtend<WcInstance>();
    expectTypeOf<typeof WebContainer>().toExtend<WcApi>();
    const module = await import("@webcontainer/api");
    expect(typeof module.WebContainer.boot).toBe("function");
  });
});
