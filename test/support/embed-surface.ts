/**
 * An embed's frame for the backend's tests: only the runtime and the few methods a test names; any other
 * method throws, so a test that reaches past what it means to check says so.
 */
import type { EmbedSurface } from "../../src/embed/frame-backend.js";
import type { Runtime } from "../../src/runtime/types.js";

export function testSurface(runtime: () => Runtime, given: Partial<EmbedSurface> = {}): EmbedSurface {
  const unused = (what: string) => () => {
    throw new Error(`${what} is not part of this test`);
  };
  return {
    runtime,
    page: unused("page"),
    start: unused("start"),
    adopt: unused("adopt"),
    reopen: unused("reopen"),
    chats: unused("chats"),
    openFile: unused("openFile"),
    setTheme: unused("setTheme"),
    setView: unused("setView"),
    measure: () => 0,
    looks: () => ({ view: "chat", theme: "dark" }),
    askReader: unused("askReader"),
    ...given,
  };
}
