/**
 * The Python that runs installed packages: Pyodide's CPython (package.json pins Pyodide 314.0.7, whose
 * pyodide-lock.json says Python 3.14.2; test/runtime/pip checks the two agree). Environment markers in
 * dependencies are judged against it, and site-packages is named after its minor version.
 */
export const PYTHON_FULL_VERSION = "3.14.2";
export const PYTHON_VERSION = PYTHON_FULL_VERSION.split(".").slice(0, 2).join(".");

/** PEP 508's marker variables as Pyodide's CPython reports them (`sys.platform` is emscripten). */
export const MARKER_ENVIRONMENT: Readonly<Record<string, string>> = {
  os_name: "posix",
  sys_platform: "emscripten",
  platform_system: "Emscripten",
  platform_machine: "wasm32",
  platform_release: "",
  platform_version: "",
  platform_python_implementation: "CPython",
  implementation_name: "cpython",
  implementation_version: PYTHON_FULL_VERSION,
  python_version: PYTHON_VERSION,
  python_full_version: PYTHON_FULL_VERSION,
};
