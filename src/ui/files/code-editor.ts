/**
 * CodeMirror 6 for the file editor. Loaded on demand (the editor is not part of the first paint), and
 * each language's grammar only when a file of that kind is opened.
 *
 * Colours come from CSS variables (styles.css), so one setup serves the light and the dark theme.
 * Built from the @codemirror/* packages directly (the `codemirror` bundle package would add nothing
 * this needs). Tab is left to move focus, so the keyboard is never trapped in the editor.
 */
import { closeBrackets, closeBracketsKeymap } from "@codemirror/autocomplete";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { highlightSelectionMatches, search, searchKeymap } from "@codemirror/search";
import {
  bracketMatching,
  foldGutter,
  foldKeymap,
  HighlightStyle,
  indentOnInput,
  type LanguageSupport,
  syntaxHighlighting,
} from "@codemirror/language";
import {
  Annotation,
  Compartment,
  EditorSelection,
  EditorState,
  StateEffect,
  StateField,
  Transaction,
  type Extension,
} from "@codemirror/state";
import {
  Decoration,
  type DecorationSet,
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
} from "@codemirror/view";
import { type Diagnostic, lintGutter, setDiagnostics } from "@codemirror/lint";
import { tags } from "@lezer/highlight";
import { extname } from "pathe";

/** Token classes (tok-*) styled by the theme's --tok-* variables. */
const highlight = HighlightStyle.define([
  { tag: [tags.keyword, tags.controlKeyword, tags.operatorKeyword, tags.moduleKeyword, tags.definitionKeyword], class: "tok-keyword" },
  { tag: [tags.string, tags.special(tags.string), tags.regexp, tags.character], class: "tok-string" },
  { tag: [tags.comment, tags.lineComment, tags.blockComment, tags.docComment, tags.meta], class: "tok-comment" },
  { tag: [tags.number, tags.bool, tags.null, tags.atom, tags.unit], class: "tok-number" },
  { tag: [tags.typeName, tags.className, tags.namespace], class: "tok-type" },
  { tag: [tags.propertyName], class: "tok-property" },
  {
    tag: [tags.definition(tags.variableName), tags.function(tags.variableName), tags.function(tags.propertyName)],
    class: "tok-definition",
  },
  { tag: [tags.tagName, tags.angleBracket], class: "tok-tag" },
  { tag: [tags.attributeName, tags.labelName], class: "tok-attribute" },
  { tag: [tags.heading], class: "tok-heading" },
  { tag: [tags.link, tags.url], class: "tok-link" },
  { tag: [tags.emphasis], class: "tok-emphasis" },
  { tag: [tags.strong], class: "tok-strong" },
  { tag: [tags.invalid], class: "tok-invalid" },
]);

const chrome = EditorView.theme({
  "&": { height: "100%", backgroundColor: "var(--bg)", color: "var(--text)" },
  ".cm-scroller": { fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace", fontSize: "13px" },
  ".cm-gutters": { backgroundColor: "var(--panel)", color: "var(--muted)", borderRight: "1px solid var(--border)" },
  ".cm-activeLine": { backgroundColor: "var(--hover-bg)" },
  ".cm-activeLineGutter": { backgroundColor: "var(--hover-bg)", color: "var(--text)" },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--text)" },
  "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground": {
    backgroundColor: "var(--selection)",
  },
  "&.cm-focused": { outline: "2px solid var(--accent)", outlineOffset: "-2px" },
  ".cm-matchingBracket": { backgroundColor: "var(--selected-bg)", outline: "1px solid var(--border)" },
  // The language service's messages on hover, readable in both themes.
  ".cm-tooltip": { backgroundColor: "var(--panel)", color: "var(--text)", border: "1px solid var(--border)" },
  ".cm-diagnostic": { color: "var(--text)" },
  ".cm-diagnostic-error": { borderLeftColor: "var(--error-border)" },
  ".cm-diagnosticSource": { color: "var(--muted)", opacity: "1" },
});

/** A range to highlight (a Find in files hit); an empty set clears it. */
const setRevealed = StateEffect.define<{ from: number; to: number } | undefined>();
const revealedMark = Decoration.mark({ class: "cm-revealed", attributes: { "data-testid": "revealed-match" } });
const revealedLine = Decoration.line({ class: "cm-revealed-line" });
/** The highlight stays until the text changes or another place is revealed. */
const revealed = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(value, tr) {
    for (const effect of tr.effects) {
      if (!effect.is(setRevealed)) continue;
      if (!effect.value) return Decoration.none;
      const { from, to } = effect.value;
      const line = tr.state.doc.lineAt(from);
      const ranges = [revealedLine.range(line.from)];
      if (to > from) ranges.push(revealedMark.range(from, to));
      return Decoration.set(ranges);
    }
    return tr.docChanged ? Decoration.none : value;
  },
  provide: (field) => EditorView.decorations.from(field),
});

/** Marks the replacement of the whole text by a reload, which leaves the editor clean. */
const resetting = Annotation.define<boolean>();

/** The grammar for a file name, loaded on first use. */
function languageFor(path: string): Promise<LanguageSupport> | undefined {
  const ext = extname(path).toLowerCase();
  switch (ext) {
    case ".js":
    case ".mjs":
    case ".cjs":
    case ".jsx":
      return import("@codemirror/lang-javascript").then((m) => m.javascript({ jsx: true }));
    case ".ts":
    case ".mts":
    case ".cts":
      return import("@codemirror/lang-javascript").then((m) => m.javascript({ typescript: true }));
    case ".tsx":
      return import("@codemirror/lang-javascript").then((m) => m.javascript({ typescript: true, jsx: true }));
    case ".json":
    case ".jsonc":
      return import("@codemirror/lang-json").then((m) => m.json());
    case ".md":
    case ".markdown":
      return import("@codemirror/lang-markdown").then((m) => m.markdown());
    case ".css":
      return import("@codemirror/lang-css").then((m) => m.css());
    case ".html":
    case ".htm":
      return import("@codemirror/lang-html").then((m) => m.html());
    case ".py":
      return import("@codemirror/lang-python").then((m) => m.python());
    default:
      return undefined;
  }
}

export interface CodeEditorOptions {
  path: string;
  text: string;
  lineSeparator: string | undefined;
  readOnly: boolean;
  /** The text differs from what was loaded or last saved (set on the first change after either). */
  onDirty: (dirty: boolean) => void;
  /** The accessible name of the editing area. */
  label: string;
}

/** A language service's diagnostic: 0-based line and character, severity 1 (error) to 4 (hint). */
interface EditorDiagnostic {
  line: number;
  character: number;
  endLine: number;
  endCharacter: number;
  severity: 1 | 2 | 3 | 4;
  message: string;
  source: string;
}

const SEVERITIES = { 1: "error", 2: "warning", 3: "info", 4: "hint" } as const;

export interface CodeEditor {
  text(): string;
  /** Underlines the file's diagnostics (as on disk: positions move with later typing until the next report). */
  showDiagnostics(list: readonly EditorDiagnostic[]): void;
  /** Replaces the whole text, as after reloading from disk; the editor is clean after it. */
  reset(text: string, lineSeparator: string | undefined): void;
  markClean(): void;
  focus(): void;
  /**
   * Scrolls to `line` (1-based, clamped to the text), selects and highlights the UTF-16 range
   * `from`-`to` on it (clamped to the line).
   */
  reveal(line: number, from: number, to: number): void;
  destroy(): void;
  /** Resolves once the file's grammar (if any) is in place. */
  readonly languageReady: Promise<boolean>;
}

export function createCodeEditor(parent: HTMLElement, options: CodeEditorOptions): CodeEditor {
  const language = new Compartment();
  const separator = new Compartment();
  let dirty = false;
  // What is on disk as far as the editor knows: undoing back to it makes the editor clean again.
  let saved = "";
  const setDirty = (value: boolean) => {
    if (dirty === value) return;
    dirty = value;
    options.onDirty(value);
  };
  const extensions: Extension[] = [
    lineNumbers(),
    lintGutter(),
    highlightActiveLineGutter(),
    highlightSpecialChars(),
    foldGutter(),
    drawSelection(),
    indentOnInput(),
    bracketMatching(),
    closeBrackets(),
    highlightActiveLine(),
    syntaxHighlighting(highlight),
    history(),
    search({ top: true }),
    highlightSelectionMatches(),
    keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...searchKeymap, ...historyKeymap, ...foldKeymap]),
    chrome,
    revealed,
    language.of([]),
    separator.of(options.lineSeparator ? EditorState.lineSeparator.of(options.lineSeparator) : []),
    EditorState.readOnly.of(options.readOnly),
    EditorView.contentAttributes.of({ "aria-label": options.label }),
    EditorView.updateListener.of((update) => {
      if (!update.docChanged || update.transactions.some((tr) => tr.annotation(resetting))) return;
      const doc = update.state.doc;
      // The length first: the whole text is compared only when it could be equal.
      setDirty(doc.length !== saved.length || doc.toString() !== saved);
    }),
  ];
  const view = new EditorView({ parent, state: EditorState.create({ doc: options.text, extensions }) });
  saved = view.state.doc.toString();

  const loading = languageFor(options.path);
  const languageReady = loading
    ? loading.then(
        (support) => {
          view.dispatch({ effects: language.reconfigure(support) });
          return true;
        },
        () => false,
      )
    : Promise.resolve(false);

  const offset = (line: number, character: number) => {
    const doc = view.state.doc;
    if (line + 1 > doc.lines) return doc.length;
    const at = doc.line(line + 1);
    return Math.min(at.from + character, at.to);
  };

  // The last diagnostics shown: they describe the file on disk, so a reload from disk shows them again.
  let shown: readonly EditorDiagnostic[] = [];

  const editor: CodeEditor = {
    text: () => view.state.doc.toString(),
    showDiagnostics(list) {
      shown = list;
      const diagnostics: Diagnostic[] = list.map((d) => {
        const from = offset(d.line, d.character);
        return {
          from,
          to: Math.max(from, offset(d.endLine, d.endCharacter)),
          severity: SEVERITIES[d.severity],
          message: d.message,
          source: d.source,
        };
      });
      view.dispatch(setDiagnostics(view.state, diagnostics));
    },
    reset(text, lineSeparator) {
      // The separator first: the new text is split into lines by the state it is inserted into.
      view.dispatch({ effects: separator.reconfigure(lineSeparator ? EditorState.lineSeparator.of(lineSeparator) : []) });
      // Not undoable: Ctrl+Z after a reload must not bring back text that is no longer on disk.
      view.dispatch({
        changes: { from: 0, to: view.state.doc.length, insert: text },
        annotations: [resetting.of(true), Transaction.addToHistory.of(false)],
      });
      saved = view.state.doc.toString();
      setDirty(false);
      // Replacing the whole text dropped the underlines with it.
      if (shown.length > 0) editor.showDiagnostics(shown);
    },
    markClean: () => {
      saved = view.state.doc.toString();
      setDirty(false);
    },
    focus: () => view.focus(),
    reveal(lineNumber, from, to) {
      const doc = view.state.doc;
      const line = doc.line(Math.min(Math.max(1, lineNumber), doc.lines));
      const start = line.from + Math.min(Math.max(0, from), line.length);
      const end = line.from + Math.min(Math.max(from, to), line.length);
      view.dispatch({
        selection: EditorSelection.range(start, end),
        effects: [setRevealed.of({ from: start, to: end }), EditorView.scrollIntoView(start, { y: "center" })],
      });
    },
    destroy: () => view.destroy(),
    languageReady,
  };
  return editor;
}
