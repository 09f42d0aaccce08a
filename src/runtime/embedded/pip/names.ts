/** PEP 503's normal form of a project name: case and runs of `-_.` do not matter. */
export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, "-");
}

export interface WheelName {
  /** The distribution name as the file spells it (underscores for dashes). */
  distribution: string;
  version: string;
  python: string[];
  abi: string[];
  platform: string[];
}

/** The parts of a wheel's file name (PEP 427); undefined for anything that is not a wheel's name. */
export function parseWheelFilename(filename: string): WheelName | undefined {
  if (!filename.endsWith(".whl")) return undefined;
  const parts = filename.slice(0, -4).split("-");
  if (parts.length !== 5 && parts.length !== 6) return undefined;
  const [distribution, version] = parts as [string, string];
  const [python, abi, platform] = parts.slice(-3) as [string, string, string];
  return { distribution, version, python: python.split("."), abi: abi.split("."), platform: platform.split(".") };
}

/**
 * Whether CPython 3 in WebAssembly can use the wheel as it is: pure Python (`py3` or `py3N`, ABI `none`,
 * platform `any`). Anything with compiled code targets a platform this runtime is not.
 */
export function isPureWheel(wheel: WheelName): boolean {
  return wheel.python.some((tag) => /^py3\d*$/.test(tag)) && wheel.abi.includes("none") && wheel.platform.includes("any");
}
