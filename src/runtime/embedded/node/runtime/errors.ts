/** Errors as Node makes them: a `code`, and `Name [CODE]: message` as the first line of the stack for ERR_ codes. */
export function nodeError(code: string, message: string, Kind: ErrorConstructor | TypeErrorConstructor = Error): Error & { code: string } {
  const error = new Kind(message) as Error & { code: string };
  Object.defineProperty(error, "code", { value: code, enumerable: true, writable: true, configurable: true });
  if (code.startsWith("ERR_") && typeof error.stack === "string") {
    const name = error.name;
    error.stack = error.stack.replace(`${name}: `, `${name} [${code}]: `);
  }
  return error;
}

/** A core module Node has that this runtime does not: says which, and why. */
export function unsupportedModule(name: string, why: string): Error {
  return nodeError("ERR_WORKBENCH_UNSUPPORTED_MODULE", `node:${name} is not available in the workbench's embedded node: ${why}`);
}
