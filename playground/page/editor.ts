// One input pane's editor: CodeMirror 6 with YAML highlighting, line numbers, undo, and the problems the
// last render found shown at their lines (a gutter mark and an underline, the message on hover).

import { EditorState, type Extension } from '@codemirror/state';
import { EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter, drawSelection } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { syntaxHighlighting, defaultHighlightStyle, indentOnInput, bracketMatching } from '@codemirror/language';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { yaml } from '@codemirror/lang-yaml';

export interface Mark {
  line: number;
  col: number;
  message: string;
  severity: 'error' | 'warning' | 'info';
}

export class PaneEditor {
  readonly view: EditorView;
  private quiet = false;

  constructor(parent: HTMLElement, lang: 'yaml' | 'text', onChange: (text: string) => void, label: string) {
    const ext: Extension[] = [
      lineNumbers(),
      highlightActiveLineGutter(),
      history(),
      drawSelection(),
      indentOnInput(),
      bracketMatching(),
      highlightActiveLine(),
      syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
      keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
      lintGutter(),
      EditorView.contentAttributes.of({ 'aria-label': label }),
      EditorView.updateListener.of((u) => {
        if (u.docChanged && !this.quiet) onChange(u.state.doc.toString());
      }),
    ];
    if (lang === 'yaml') ext.push(yaml());
    this.view = new EditorView({ state: EditorState.create({ doc: '', extensions: ext }), parent });
  }

  get text(): string {
    return this.view.state.doc.toString();
  }

  /** Replace the text without telling onChange (a state loaded, a setup switched). */
  set(text: string): void {
    if (text === this.text) return;
    this.quiet = true;
    try {
      this.view.dispatch({ changes: { from: 0, to: this.view.state.doc.length, insert: text } });
    } finally {
      this.quiet = false;
    }
  }

  /** Show these problems at their lines; an empty list clears them. */
  mark(marks: readonly Mark[]): void {
    const doc = this.view.state.doc;
    const diags: Diagnostic[] = marks.map((m) => {
      const line = doc.line(Math.min(Math.max(1, m.line), doc.lines));
      const from = Math.min(line.from + Math.max(0, m.col - 1), line.to);
      return { from, to: Math.max(from, line.to), severity: m.severity, message: m.message };
    });
    this.view.dispatch(setDiagnostics(this.view.state, diags));
  }

  /** Put the cursor at a line and column, scrolled into view, and focus. */
  goTo(line: number, col: number): void {
    const doc = this.view.state.doc;
    const l = doc.line(Math.min(Math.max(1, line), doc.lines));
    const at = Math.min(l.from + Math.max(0, col - 1), l.to);
    this.view.dispatch({ selection: { anchor: at, head: l.to }, effects: EditorView.scrollIntoView(at, { y: 'center' }) });
    this.view.focus();
  }

  /** The line the cursor is on (1-based). */
  cursorLine(): number {
    return this.view.state.doc.lineAt(this.view.state.selection.main.head).number;
  }
}
