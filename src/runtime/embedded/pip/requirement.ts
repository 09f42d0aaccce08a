import { satisfies, validRange } from "@renovatebot/pep440";
import { MARKER_ENVIRONMENT } from "./environment.js";
import { PipError } from "./errors.js";
import { normalizeName } from "./names.js";

/** A PEP 508 requirement: `name[extra,...] specifier ; marker` (URL requirements are refused). */
export interface Requirement {
  name: string;
  extras: string[];
  /** PEP 440 specifiers joined by commas; empty for any version. */
  specifier: string;
  marker?: Marker;
  /** As written, for messages. */
  text: string;
}

type Marker = { kind: "and" | "or"; left: Marker; right: Marker } | { kind: "compare"; left: Operand; op: string; right: Operand };
type Operand = { variable: string } | { literal: string };

const NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?/;

export function parseRequirement(text: string): Requirement {
  const bad = (why: string) => new PipError([`Invalid requirement: '${text}': ${why}`]);
  const semicolon = text.indexOf(";");
  const head = (semicolon < 0 ? text : text.slice(0, semicolon)).trim();
  const markerText = semicolon < 0 ? undefined : text.slice(semicolon + 1).trim();
  const name = NAME.exec(head)?.[0];
  if (!name) throw bad("it does not start with a project name");
  let rest = head.slice(name.length).trim();
  let extras: string[] = [];
  if (rest.startsWith("[")) {
    const close = rest.indexOf("]");
    if (close < 0) throw bad("the extras' [ is not closed");
    extras = rest
      .slice(1, close)
      .split(",")
      .map((extra) => normalizeName(extra.trim()))
      .filter(Boolean);
    rest = rest.slice(close + 1).trim();
  }
  if (rest.startsWith("@")) throw bad("requirements from a URL are not supported here; name a package on the index");
  if (rest.startsWith("(") && rest.endsWith(")")) rest = rest.slice(1, -1).trim();
  const specifier = rest.replace(/\s+/g, "");
  if (specifier !== "" && !validRange(specifier)) throw bad(`'${rest}' is not a version specifier (PEP 440)`);
  let marker: Marker | undefined;
  if (markerText) {
    try {
      marker = new MarkerParser(markerText).parse();
    } catch (error) {
      throw bad(error instanceof Error ? error.message : String(error));
    }
  }
  return { name, extras, specifier, marker, text: text.trim() };
}

/** Whether a requirement applies in Pyodide's environment, with `extras` requested of the package that has it. */
export function markerApplies(requirement: Requirement, extras: readonly string[] = []): boolean {
  if (!requirement.marker) return true;
  if (extras.length === 0) return evaluate(requirement.marker, "");
  return extras.some((extra) => evaluate(requirement.marker!, extra)) || evaluate(requirement.marker, "");
}

function evaluate(marker: Marker, extra: string): boolean {
  if (marker.kind !== "compare")
    return marker.kind === "and"
      ? evaluate(marker.left, extra) && evaluate(marker.right, extra)
      : evaluate(marker.left, extra) || evaluate(marker.right, extra);
  const { left, op, right } = marker;
  const isExtra = (operand: Operand) => "variable" in operand && operand.variable === "extra";
  const value = (operand: Operand): string => {
    if ("literal" in operand) return isExtra(left) || isExtra(right) ? normalizeName(operand.literal) : operand.literal;
    if (operand.variable === "extra") return extra;
    const known = MARKER_ENVIRONMENT[operand.variable];
    if (known === undefined) throw new PipError([`Unknown environment marker variable '${operand.variable}'`]);
    return known;
  };
  return compare(value(left), op, value(right));
}

function compare(left: string, op: string, right: string): boolean {
  if (op === "in") return right.includes(left);
  if (op === "not in") return !right.includes(left);
  // PEP 508: a version comparison when both sides are versions, else a string comparison.
  if (op !== "===" && validRange(`${op}${right}`) && satisfiesSafely(left, `${op}${right}`) !== undefined)
    return satisfiesSafely(left, `${op}${right}`)!;
  switch (op) {
    case "==":
    case "===":
      return left === right;
    case "!=":
      return left !== right;
    case "<":
      return left < right;
    case "<=":
      return left <= right;
    case ">":
      return left > right;
    case ">=":
      return left >= right;
    default:
      return false;
  }
}

function satisfiesSafely(version: string, specifier: string): boolean | undefined {
  if (!/^\s*v?\d/.test(version)) return undefined;
  try {
    return satisfies(version, specifier, { prereleases: true });
  } catch {
    return undefined;
  }
}

const OPS = ["===", "==", "!=", "<=", ">=", "~=", "<", ">"];

/** PEP 508's marker grammar: `or` of `and` of comparisons, with parentheses. */
class MarkerParser {
  private at = 0;
  constructor(private readonly text: string) {}

  parse(): Marker {
    const marker = this.or();
    this.space();
    if (this.at < this.text.length) throw new Error(`unexpected '${this.text.slice(this.at)}' in the marker`);
    return marker;
  }

  private space(): void {
    while (this.at < this.text.length && /\s/.test(this.text[this.at]!)) this.at++;
  }

  private word(word: string): boolean {
    this.space();
    const next = this.text.slice(this.at, this.at + word.length);
    const after = this.text[this.at + word.length];
    if (next === word && (after === undefined || !/[A-Za-z0-9_]/.test(after))) {
      this.at += word.length;
      return true;
    }
    return false;
  }

  private or(): Marker {
    let left = this.and();
    while (this.word("or")) left = { kind: "or", left, right: this.and() };
    return left;
  }

  private and(): Marker {
    let left = this.atom();
    while (this.word("and")) left = { kind: "and", left, right: this.atom() };
    return left;
  }

  private atom(): Marker {
    this.space();
    if (this.text[this.at] === "(") {
      this.at++;
      const inner = this.or();
      this.space();
      if (this.text[this.at] !== ")") throw new Error("a ( in the marker is not closed");
      this.at++;
      return inner;
    }
    const left = this.operand();
    const op = this.op();
    return { kind: "compare", left, op, right: this.operand() };
  }

  private op(): string {
    this.space();
    for (const op of OPS) {
      if (this.text.startsWith(op, this.at)) {
        this.at += op.length;
        return op;
      }
    }
    if (this.word("in")) return "in";
    if (this.word("not")) {
      if (this.word("in")) return "not in";
    }
    throw new Error(`expected a comparison at '${this.text.slice(this.at)}' in the marker`);
  }

  private operand(): Operand {
    this.space();
    const quote = this.text[this.at];
    if (quote === "'" || quote === '"') {
      const end = this.text.indexOf(quote, this.at + 1);
      if (end < 0) throw new Error("a string in the marker is not closed");
      const literal = this.text.slice(this.at + 1, end);
      this.at = end + 1;
      return { literal };
    }
    const variable = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(this.text.slice(this.at))?.[0];
    if (!variable) throw new Error(`expected a variable or a string at '${this.text.slice(this.at)}' in the marker`);
    this.at += variable.length;
    // `os.name` and friends are the old spellings of the underscored names.
    return { variable: variable.replace(/\./g, "_") };
  }
}
