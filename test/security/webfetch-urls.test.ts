/**
 * webfetch's address as a careless model or person writes it: an address that does not parse, or one
 * carrying a user name and password (which no fetch here will send, and which makes `allowed.example@evil`
 * read as allowed.example to a person approving it), gets a clear error saying what to fix, before any
 * permission is asked and without touching the network.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { PermissionRequest } from "../../src/tools/permission/types.js";
import { sessionWith } from "../support/tool-session.js";

let dispose: (() => Promise<void>) | undefined;
afterEach(async () => {
  await dispose?.();
  dispose = undefined;
});

describe("webfetch refuses addresses it cannot fetch honestly", () => {
  it("an address that does not parse, or that carries credentials, is refused before asking", async () => {
    const s = await sessionWith({});
    dispose = s.dispose;
    const asked: PermissionRequest[] = [];
    s.session.bus.subscribe("permission.asked", (request) => void asked.push(request));
    for (const url of ["http://exa mple.com/", "https://[::1/x", "http://"]) {
      const call = await s.session.run("webfetch", { url });
      expect(call.status).toBe("error");
      expect(call.error).toMatch(/is not a valid web address/);
    }
    const sneaky = await s.session.run("webfetch", { url: "https://docs.example.com@127.0.0.1:9/secret" });
    expect(sneaky.status).toBe("error");
    expect(sneaky.error).toMatch(/user name or password/);
    expect(asked).toEqual([]);
  });
});
