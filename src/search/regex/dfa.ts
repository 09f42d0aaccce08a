/**
 * A lazy DFA that answers "does this line match?" for every line of a buffer in one pass over the
 * bytes. States are sets of NFA states, built on first use and cached (a bounded cache, cleared when
 * full), so the work per byte is one table lookup and the whole scan is linear in the input whatever
 * the pattern: there is no backtracking.
 *
 * The search is unanchored (the NFA's start is re-entered at every byte) and line-oriented: `\n`
 * ends a line and restarts the automaton. Look-arounds are resolved on the transition that knows the
 * next byte: `$` holds before `\n` or the end, `\b` compares the previous byte's word-ness (kept in the
 * state) with the next one. Unicode `\b` next to a non-ASCII byte is handed back to the caller
 * ("quit"), which asks the Pike VM about that line.
 */
import type { MatchBudget } from "./budget.js";
import { isAsciiWordByte } from "./unicode.js";
import {
  EMPTY,
  LOOK,
  LOOK_END,
  LOOK_NOT_WORD_A,
  LOOK_NOT_WORD_U,
  LOOK_START,
  LOOK_WORD_A,
  LOOK_WORD_U,
  MATCH,
  RANGES,
  SPLIT,
  type Nfa,
} from "./nfa.js";

/** Not computed yet. */
export const UNKNOWN = -1;
/** The line matches (at or before this byte). */
export const MATCHED = -2;
/** End of a line without a match: restart at the next byte. */
export const LINE_RESET = -3;
/** Cannot decide here (Unicode word boundary next to non-ASCII): ask the Pike VM. */
export const QUIT = -4;

const STRIDE = 256;
const MAX_STATES = 4096;
const EOL = -1;

interface DfaState {
  set: Int32Array;
  atStart: boolean;
  prevWord: boolean;
  /** Outcome at the end of a line: 0 unknown, 1 match, 2 no match. */
  eol: number;
}

export class LazyDfa {
  /** Told the work of each new transition, so a long match can be stopped (see ./budget.ts). */
  budget: MatchBudget | undefined;
  /** trans[s + b]: the next state's offset (>= 0), or UNKNOWN, MATCHED, LINE_RESET, QUIT. */
  trans: Int32Array;
  private states: DfaState[] = [];
  private readonly index = new Map<string, number>();
  /** Byte → equivalence class (bytes in a class behave the same in every state). */
  private readonly classOf = new Uint8Array(256);
  private readonly members: number[][] = [];
  private readonly seen: Int32Array;
  private gen = 1;
  private readonly stack: Int32Array;
  private readonly trackWord: boolean;
  private readonly quitHigh: boolean;
  /** How many times the cache was thrown away (a sign of a state explosion). */
  clears = 0;

  constructor(private readonly nfa: Nfa) {
    this.seen = new Int32Array(nfa.size);
    this.stack = new Int32Array(nfa.size * 2 + 8);
    this.trackWord = nfa.hasWordA || nfa.hasWordU;
    this.quitHigh = nfa.hasWordU;
    this.trans = new Int32Array(STRIDE * 16).fill(UNKNOWN);
    this.buildClasses();
    this.reset();
  }

  private buildClasses(): void {
    const boundary = new Uint8Array(257);
    const nfa = this.nfa;
    for (let k = 0; k < nfa.edgeLo.length; k++) {
      boundary[nfa.edgeLo[k]!] = 1;
      boundary[nfa.edgeHi[k]! + 1] = 1;
    }
    boundary[10] = 1;
    boundary[11] = 1;
    if (this.trackWord) {
      for (const [lo, hi] of [
        [0x30, 0x39],
        [0x41, 0x5a],
        [0x5f, 0x5f],
        [0x61, 0x7a],
      ] as const) {
        boundary[lo] = 1;
        boundary[hi + 1] = 1;
      }
    }
    if (this.quitHigh) boundary[0x80] = 1;
    let cls = -1;
    for (let b = 0; b < 256; b++) {
      if (b === 0 || boundary[b]) {
        cls++;
        this.members.push([]);
      }
      this.classOf[b] = cls;
      this.members[cls]!.push(b);
    }
  }

  /** Offset of the start state (always the first). */
  readonly start = 0;

  private reset(): void {
    this.states = [];
    this.index.clear();
    this.trans.fill(UNKNOWN);
    const set = this.close([this.nfa.start], true);
    this.intern(set, true, false);
  }

  /** Epsilon closure at a position whose next byte is not known yet: `$` and `\b` stay pending. */
  private close(seeds: number[], atStart: boolean): Int32Array {
    const nfa = this.nfa;
    const gen = ++this.gen;
    const out: number[] = [];
    const stack = this.stack;
    let sp = 0;
    for (let i = seeds.length - 1; i >= 0; i--) stack[sp++] = seeds[i]!;
    while (sp > 0) {
      const id = stack[--sp]!;
      if (this.seen[id] === gen) continue;
      this.seen[id] = gen;
      const kind = nfa.kind[id]!;
      if (kind === RANGES || kind === MATCH) out.push(id);
      else if (kind === SPLIT) {
        stack[sp++] = nfa.out2[id]!;
        stack[sp++] = nfa.out1[id]!;
      } else if (kind === EMPTY) stack[sp++] = nfa.out1[id]!;
      else if (kind === LOOK) {
        const code = nfa.out2[id]!;
        if (code === LOOK_START) {
          if (atStart) stack[sp++] = nfa.out1[id]!;
        } else out.push(id);
      }
    }
    out.sort((a, b) => a - b);
    return Int32Array.from(out);
  }

  /** The states live once the next byte is known (`next` = EOL at the end of the line). */
  private resolve(state: DfaState, next: number): { ids: number[]; matched: boolean } {
    const nfa = this.nfa;
    const gen = ++this.gen;
    const ids: number[] = [];
    let matched = false;
    const nextWord = next !== EOL && isAsciiWordByte(next);
    const stack = this.stack;
    let sp = 0;
    for (let i = state.set.length - 1; i >= 0; i--) stack[sp++] = state.set[i]!;
    while (sp > 0) {
      const id = stack[--sp]!;
      if (this.seen[id] === gen) continue;
      this.seen[id] = gen;
      const kind = nfa.kind[id]!;
      if (kind === RANGES) ids.push(id);
      else if (kind === MATCH) matched = true;
      else if (kind === SPLIT) {
        stack[sp++] = nfa.out2[id]!;
        stack[sp++] = nfa.out1[id]!;
      } else if (kind === EMPTY) stack[sp++] = nfa.out1[id]!;
      else if (kind === LOOK) {
        const code = nfa.out2[id]!;
        let holds: boolean;
        switch (code) {
          case LOOK_START:
            holds = state.atStart;
            break;
          case LOOK_END:
            holds = next === EOL;
            break;
          case LOOK_WORD_A:
          case LOOK_WORD_U:
            holds = state.prevWord !== nextWord;
            break;
          case LOOK_NOT_WORD_A:
          case LOOK_NOT_WORD_U:
            holds = state.prevWord === nextWord;
            break;
          default:
            holds = false;
        }
        if (holds) stack[sp++] = nfa.out1[id]!;
      }
    }
    return { ids, matched };
  }

  private intern(set: Int32Array, atStart: boolean, prevWord: boolean): number {
    const word = this.trackWord && prevWord;
    const key = `${atStart ? "S" : ""}${word ? "W" : ""}:${set.join(",")}`;
    const known = this.index.get(key);
    if (known !== undefined) return known;
    const id = this.states.length;
    this.states.push({ set, atStart, prevWord: word, eol: 0 });
    const offset = id * STRIDE;
    if (offset + STRIDE > this.trans.length) {
      const grown = new Int32Array(Math.max(this.trans.length * 2, offset + STRIDE)).fill(UNKNOWN);
      grown.set(this.trans);
      this.trans = grown;
    }
    this.index.set(key, offset);
    return offset;
  }

  /** Computes (and caches) the transition from the state at `offset` on byte `b`. */
  compute(offset: number, b: number): number {
    let state = this.states[offset / STRIDE]!;
    if (b === 10) {
      const value = this.eolMatches(offset) ? MATCHED : LINE_RESET;
      this.trans[offset + 10] = value;
      return value;
    }
    const cls = this.classOf[b]!;
    let value: number;
    if (this.quitHigh && b >= 0x80) {
      value = QUIT;
    } else {
      this.budget?.spend(state.set.length + 1);
      const { ids, matched } = this.resolve(state, b);
      if (matched) value = MATCHED;
      else {
        const seeds: number[] = [];
        for (const id of ids) {
          const next = this.nfa.step(id, b);
          if (next >= 0) seeds.push(next);
        }
        seeds.push(this.nfa.start);
        const set = this.close(seeds, false);
        if (set.length > 0 && this.nfa.kind[set[0]!] === MATCH) value = MATCHED;
        else if (set.some((id) => this.nfa.kind[id] === MATCH)) value = MATCHED;
        else {
          if (this.states.length >= MAX_STATES) {
            // Start over with an empty cache; the state we came from is not needed any more.
            this.clears++;
            const keep = { set: state.set, atStart: state.atStart, prevWord: state.prevWord };
            this.reset();
            offset = this.intern(keep.set, keep.atStart, keep.prevWord);
            state = this.states[offset / STRIDE]!;
          }
          value = this.intern(set, false, isAsciiWordByte(b));
        }
      }
    }
    for (const member of this.members[cls]!) if (member !== 10) this.trans[offset + member] = value;
    return value;
  }

  /** Does the line match if it ends in this state? */
  eolMatches(offset: number): boolean {
    const state = this.states[offset / STRIDE]!;
    if (state.eol === 0) state.eol = this.resolve(state, EOL).matched ? 1 : 2;
    return state.eol === 1;
  }
}
