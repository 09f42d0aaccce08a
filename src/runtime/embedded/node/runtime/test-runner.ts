/**
 * `node:test` and `node --test`: test/it, describe/suite, hooks, skip/todo/only, subtests and a small `mock`,
 * reported as Node's spec reporter does (✔/✖ lines, suites as ▶, then the ℹ summary and the failures).
 * Tests declared while a file loads run, in order, once it has loaded.
 */
import { inspect } from "./format.js";

type TestFn = (context: TestContext, done?: (error?: unknown) => void) => unknown;
type HookFn = (context: TestContext | SuiteNode) => unknown;

interface TestOptions {
  skip?: boolean | string;
  todo?: boolean | string;
  only?: boolean;
  timeout?: number;
  concurrency?: number | boolean;
}

interface Hooks {
  before: HookFn[];
  after: HookFn[];
  beforeEach: HookFn[];
  afterEach: HookFn[];
}

interface Node {
  name: string;
  options: TestOptions;
  parent: SuiteNode | undefined;
  /** Where it was declared, as Node's failure list names it ("test at file:line:col"). */
  location: string;
}

interface TestNode extends Node {
  kind: "test";
  fn: TestFn | undefined;
}

interface SuiteNode extends Node {
  kind: "suite";
  fn: ((suite: SuiteNode) => unknown) | undefined;
  children: Array<TestNode | SuiteNode>;
  hooks: Hooks;
}

interface Result {
  name: string;
  depth: number;
  ok: boolean;
  skip?: string | boolean;
  todo?: string | boolean;
  error?: unknown;
  ms: number;
  location: string;
  /** A describe() suite (counted as a suite, never as a test). */
  suite: boolean;
  /** A test whose failure comes from its subtests (counted, but not listed again among the failures). */
  fromSubtests?: boolean;
}

const newHooks = (): Hooks => ({ before: [], after: [], beforeEach: [], afterEach: [] });

export interface TestRunnerHost {
  write(text: string): void;
  now(): number;
  cwd(): string;
}

/** Where `test()` was called: the file's path, line and column. */
function callerLocation(): string {
  const stack = new Error().stack?.split("\n") ?? [];
  const frame = stack.find((line) => /\(?(?:file:\/\/)?\/.*:\d+:\d+\)?$/.test(line) && !line.includes("node:internal"));
  const match = frame?.match(/\(?(?:file:\/\/)?(\/[^()]*):(\d+:\d+)\)?$/);
  if (!match) return "unknown";
  return `${decodeURIComponent(match[1]!)}:${match[2]}`;
}

/** A location as Node's failure list names it: relative to the working directory when inside it. */
function relativeTo(cwd: string, location: string): string {
  const base = cwd.endsWith("/") ? cwd : `${cwd}/`;
  return location.startsWith(base) ? location.slice(base.length) : location;
}

class MockFunction {
  calls: Array<{ arguments: unknown[]; result?: unknown; error?: unknown; this: unknown }> = [];
  callCount(): number {
    return this.calls.length;
  }
  resetCalls(): void {
    this.calls = [];
  }
}

function makeMock() {
  const restores: Array<() => void> = [];
  const fn = (original: (...args: unknown[]) => unknown = () => undefined, implementation?: (...args: unknown[]) => unknown) => {
    const state = new MockFunction();
    let impl = implementation ?? original;
    const mocked = function (this: unknown, ...args: unknown[]) {
      try {
        const result = impl.apply(this, args);
        state.calls.push({ arguments: args, result, this: this });
        return result;
      } catch (error) {
        state.calls.push({ arguments: args, error, this: this });
        throw error;
      }
    };
    Object.assign(state, { mockImplementation: (next: typeof impl) => (impl = next), restore: () => (impl = original) });
    return Object.assign(mocked, { mock: state });
  };
  return {
    fn,
    method: (object: Record<string, unknown>, name: string, implementation?: (...args: unknown[]) => unknown) => {
      const original = object[name] as (...args: unknown[]) => unknown;
      const mocked = fn(original, implementation);
      object[name] = mocked;
      restores.push(() => (object[name] = original));
      return mocked;
    },
    restoreAll: () => {
      for (const restore of restores.splice(0)) restore();
    },
    reset: () => {
      for (const restore of restores.splice(0)) restore();
    },
  };
}

const mock = makeMock();

class TestContext {
  readonly children: TestNode[] = [];
  readonly mock = makeMock();
  private skipped: string | boolean | undefined;
  private todoed: string | boolean | undefined;
  readonly signal = new AbortController().signal;
  readonly diagnostics: string[] = [];

  constructor(
    readonly name: string,
    readonly fullName: string,
  ) {}

  test = (name?: unknown, options?: unknown, fn?: unknown): Promise<void> => {
    const node = makeTest(name, options, fn, undefined);
    this.children.push(node);
    return Promise.resolve();
  };

  skip(message?: string): void {
    this.skipped = message ?? true;
  }

  todo(message?: string): void {
    this.todoed = message ?? true;
  }

  diagnostic(message: string): void {
    this.diagnostics.push(message);
  }

  plan(): void {}

  runOnly(): void {}

  get assert(): unknown {
    return (globalThis as { __workbenchAssert?: unknown }).__workbenchAssert;
  }

  outcome(): { skip?: string | boolean; todo?: string | boolean } {
    return { skip: this.skipped, todo: this.todoed };
  }
}

function makeTest(name: unknown, options: unknown, fn: unknown, parent: SuiteNode | undefined): TestNode {
  if (typeof name === "function") [fn, options, name] = [name, {}, name.name];
  if (typeof options === "function") [fn, options] = [options, {}];
  return {
    kind: "test",
    name: typeof name === "string" && name !== "" ? name : "<anonymous>",
    options: (options as TestOptions) ?? {},
    fn: fn as TestFn | undefined,
    parent,
    location: callerLocation(),
  };
}

/** The node:test module, and the runner that reports what the files declared. */
export function createTestRunner(host: TestRunnerHost) {
  const root: SuiteNode = {
    kind: "suite",
    name: "<root>",
    options: {},
    fn: undefined,
    children: [],
    hooks: newHooks(),
    parent: undefined,
    location: "",
  };
  let current: SuiteNode = root;
  const results: Result[] = [];
  let declaredAny = false;

  const addTest = (name?: unknown, options?: unknown, fn?: unknown, extra: TestOptions = {}) => {
    declaredAny = true;
    const node = makeTest(name, options, fn, current);
    node.options = { ...node.options, ...extra };
    current.children.push(node);
    return Promise.resolve();
  };

  const addSuite = (name?: unknown, options?: unknown, fn?: unknown, extra: TestOptions = {}) => {
    declaredAny = true;
    if (typeof name === "function") [fn, options, name] = [name, {}, name.name];
    if (typeof options === "function") [fn, options] = [options, {}];
    const suite: SuiteNode = {
      kind: "suite",
      name: typeof name === "string" && name !== "" ? name : "<anonymous>",
      options: { ...((options as TestOptions) ?? {}), ...extra },
      fn: fn as SuiteNode["fn"],
      children: [],
      hooks: newHooks(),
      parent: current,
      location: callerLocation(),
    };
    current.children.push(suite);
    // The suite's body runs now, declaring what is inside it.
    const outer = current;
    current = suite;
    try {
      suite.fn?.call(suite, suite);
    } finally {
      current = outer;
    }
    return Promise.resolve();
  };

  const variants = <T extends (...args: never[]) => unknown>(
    base: (name?: unknown, options?: unknown, fn?: unknown, extra?: TestOptions) => Promise<void>,
  ) =>
    Object.assign((name?: unknown, options?: unknown, fn?: unknown) => base(name, options, fn), {
      skip: (name?: unknown, options?: unknown, fn?: unknown) => base(name, options, fn, { skip: true }),
      todo: (name?: unknown, options?: unknown, fn?: unknown) => base(name, options, fn, { todo: true }),
      only: (name?: unknown, options?: unknown, fn?: unknown) => base(name, options, fn, { only: true }),
    }) as unknown as T;

  const hook =
    (kind: keyof Hooks) =>
    (fn: HookFn): void => {
      current.hooks[kind].push(fn);
    };

  const test = variants(addTest);
  const describe = variants(addSuite);
  const module = Object.assign(test, {
    test,
    it: test,
    describe,
    suite: describe,
    before: hook("before"),
    after: hook("after"),
    beforeEach: hook("beforeEach"),
    afterEach: hook("afterEach"),
    mock,
    run: () => {
      throw new Error("run() is not available in the workbench's embedded node: use node --test");
    },
  });
  (module as unknown as Record<string, unknown>).default = module;

  async function callWithDone(fn: (...args: unknown[]) => unknown, self: unknown, args: unknown[], wantsDone: boolean): Promise<void> {
    if (!wantsDone) {
      await fn.apply(self, args);
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const done = (error?: unknown) => (error ? reject(error) : resolve());
      try {
        const result = fn.apply(self, [...args, done]);
        if (result && typeof (result as Promise<unknown>).then === "function") {
          reject(new Error("passed a callback but also returned a Promise"));
        }
      } catch (error) {
        reject(error);
      }
    });
  }

  function hooksFrom(suite: SuiteNode | undefined, kind: "beforeEach" | "afterEach"): HookFn[] {
    const chain: SuiteNode[] = [];
    for (let at = suite; at; at = at.parent) chain.unshift(at);
    const all = chain.flatMap((node) => node.hooks[kind]);
    return kind === "afterEach" ? all.reverse() : all;
  }

  async function runTest(node: TestNode, depth: number, suite: SuiteNode | undefined, prefix: string): Promise<boolean> {
    const started = host.now();
    const skip = node.options.skip;
    const todo = node.options.todo;
    if (skip || !node.fn) {
      const result: Result = {
        name: node.name,
        depth,
        ok: true,
        skip: skip || (!todo && !node.fn),
        todo: !skip && todo,
        ms: 0,
        location: node.location,
        suite: false,
      };
      report(result);
      return true;
    }
    const context = new TestContext(node.name, `${prefix}${node.name}`);
    let error: unknown;
    try {
      for (const fn of hooksFrom(suite, "beforeEach")) await fn(context);
      await withTimeout(
        callWithDone(node.fn as (...args: unknown[]) => unknown, context, [context], node.fn.length >= 2),
        node.options.timeout,
      );
    } catch (caught) {
      error = caught ?? new Error("test failed");
    }
    // afterEach runs whether the test passed or not, as in Node.
    try {
      for (const fn of hooksFrom(suite, "afterEach")) await fn(context);
    } catch (caught) {
      error ??= caught;
    }
    context.mock.restoreAll();
    const children = context.children;
    let childrenOk = true;
    const own = context.outcome();
    const result: Result = {
      name: node.name,
      depth,
      ok: error === undefined,
      skip: own.skip,
      todo: todo || own.todo,
      error,
      ms: host.now() - started,
      location: node.location,
      suite: false,
    };
    if (children.length > 0) {
      host.write(`${"  ".repeat(depth)}▶ ${node.name}\n`);
      // Subtests are reported before their parent, as Node does.
      for (const child of children) childrenOk = (await runTest(child, depth + 1, undefined, `${prefix}${node.name} > `)) && childrenOk;
      result.ms = host.now() - started;
      if (!childrenOk && result.ok) {
        result.ok = false;
        result.fromSubtests = true;
      }
    }
    report(result);
    return result.ok || Boolean(result.todo);
  }

  async function runSuite(suite: SuiteNode, depth: number, prefix: string, isRoot = false): Promise<boolean> {
    const started = host.now();
    if (!isRoot) host.write(`${"  ".repeat(depth)}▶ ${suite.name}\n`);
    let ok = true;
    let error: unknown;
    const only = hasOnly(suite);
    if (suite.options.skip) {
      for (const child of suite.children)
        report({ name: child.name, depth: depth + 1, ok: true, skip: true, ms: 0, location: child.location, suite: false });
    } else {
      try {
        for (const fn of suite.hooks.before) await fn(suite);
        for (const child of suite.children) {
          if (only && !child.options.only && !(child.kind === "suite" && hasOnly(child))) continue;
          if (suite.options.todo) child.options.todo ??= true;
          const childOk =
            child.kind === "suite"
              ? await runSuite(child, isRoot ? depth : depth + 1, isRoot ? prefix : `${prefix}${suite.name} > `)
              : await runTest(child, isRoot ? depth : depth + 1, suite, isRoot ? prefix : `${prefix}${suite.name} > `);
          ok = childOk && ok;
        }
        for (const fn of suite.hooks.after) await fn(suite);
      } catch (caught) {
        error = caught;
        ok = false;
      }
    }
    if (!isRoot) {
      report({
        name: suite.name,
        depth,
        ok,
        error,
        ms: host.now() - started,
        location: suite.location,
        suite: true,
        skip: suite.options.skip,
        fromSubtests: !ok && error === undefined,
      });
    }
    return ok;
  }

  function hasOnly(suite: SuiteNode): boolean {
    return suite.children.some((child) => child.options.only || (child.kind === "suite" && hasOnly(child)));
  }

  function formatError(error: unknown, indent: string): string {
    let text: string;
    if (error instanceof Error) {
      const extra = Object.keys(error).filter((key) => !["stack", "message", "subtests"].includes(key));
      text = withoutRuntimeFrames(error.stack ?? String(error));
      if (extra.length > 0)
        text += ` {\n${extra.map((key) => `  ${key}: ${inspect((error as unknown as Record<string, unknown>)[key])}`).join(",\n")}\n}`;
    } else text = inspect(error);
    return text
      .split("\n")
      .map((line) => `${indent}${line}`)
      .join("\n");
  }

  function line(result: Result): string {
    const indent = "  ".repeat(result.depth);
    const ms = `(${result.ms.toFixed(6).replace(/\.?0+$/, "")}ms)`;
    if ((result.suite || result.fromSubtests) && result.error === undefined && !result.skip)
      return `${indent}${result.ok ? "✔" : "✖"} ${result.name} ${ms}\n`;
    if (result.skip) return `${indent}﹣ ${result.name} ${ms} # SKIP${typeof result.skip === "string" ? ` ${result.skip}` : ""}\n`;
    if (result.todo)
      return `${indent}${result.ok ? "✔" : "✖"} ${result.name} ${ms} # TODO${typeof result.todo === "string" ? ` ${result.todo}` : ""}\n`;
    if (result.ok) return `${indent}✔ ${result.name} ${ms}\n`;
    return `${indent}✖ ${result.name} ${ms}\n${formatError(result.error, `${indent}  `)}\n\n`;
  }

  function report(result: Result): void {
    results.push(result);
    host.write(line(result));
  }

  /** Runs what the loaded file declared; the declarations start afresh for the next file. */
  async function runDeclared(): Promise<void> {
    const suite = { ...root, children: root.children.splice(0), hooks: root.hooks };
    root.hooks = newHooks();
    declaredAny = false;
    await runSuite(suite, 0, "", true);
  }

  /** A file that declared no tests counts as one test: it passed when it loaded without throwing. */
  function reportFile(name: string, ms: number, error: unknown): void {
    report({ name, depth: 0, ok: error === undefined, error, ms, location: name, suite: false });
  }

  function summary(startedAt: number): { failed: number } {
    const tests = results.filter((result) => !result.suite);
    const suites = results.filter((result) => result.suite);
    const count = (predicate: (result: Result) => boolean) => tests.filter(predicate).length;
    const failed = tests.filter((result) => !result.ok && !result.todo && !result.skip);
    // A suite's own error (a hook that threw) is a failure of its own; one from its tests is not.
    const suiteErrors = suites.filter((result) => !result.ok && result.error !== undefined);
    const lines = [
      `ℹ tests ${tests.length}`,
      `ℹ suites ${suites.length}`,
      `ℹ pass ${count((result) => result.ok && !result.skip && !result.todo)}`,
      `ℹ fail ${failed.length + suiteErrors.length}`,
      "ℹ cancelled 0",
      `ℹ skipped ${count((result) => Boolean(result.skip))}`,
      `ℹ todo ${count((result) => Boolean(result.todo))}`,
      `ℹ duration_ms ${(host.now() - startedAt).toFixed(6).replace(/\.?0+$/, "")}`,
    ];
    host.write(`${lines.join("\n")}\n`);
    const failures = [...failed, ...suiteErrors].filter((result) => !result.fromSubtests);
    if (failures.length > 0) {
      host.write("\n✖ failing tests:\n\n");
      for (const result of failures) host.write(`test at ${relativeTo(host.cwd(), result.location)}\n${line({ ...result, depth: 0 })}`);
    }
    return { failed: failed.length + suiteErrors.length };
  }

  return {
    module,
    runDeclared,
    reportFile,
    summary,
    declared: () => declaredAny || root.children.length > 0,
    hasResults: () => results.length > 0,
  };
}

/** Stack lines inside this runtime say nothing about the program: they go. */
export function withoutRuntimeFrames(stack: string): string {
  return stack
    .split("\n")
    .filter((line) => !line.includes("node:internal/workbench-runtime"))
    .join("\n");
}

function withTimeout(promise: Promise<void>, timeout: number | undefined): Promise<void> {
  if (!timeout || !Number.isFinite(timeout)) return promise;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`test timed out after ${timeout}ms`)), timeout);
    promise.then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
