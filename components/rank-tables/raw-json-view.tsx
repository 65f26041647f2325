"use client";

import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { json } from "@codemirror/lang-json";
import { bracketMatching, foldGutter, syntaxHighlighting, defaultHighlightStyle } from "@codemirror/language";
import { lintGutter, setDiagnostics, type Diagnostic } from "@codemirror/lint";
import { EditorState } from "@codemirror/state";
import { EditorView, highlightActiveLine, keymap, lineNumbers } from "@codemirror/view";
import { forwardRef, useEffect, useImperativeHandle, useRef } from "react";
import type { Issue } from "@/lib/rank-table";

export interface RawJsonHandle {
  /** Puts the cursor at a line and column (1-based) and scrolls there. */
  select(line: number, column: number): void;
}

interface Props {
  text: string;
  issues: Issue[];
  readOnly: boolean;
  label: string;
  height: number;
  onChange: (text: string) => void;
}

function toDiagnostics(state: EditorState, issues: Issue[]): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const issue of issues) {
    if (!issue.line) continue;
    const line = state.doc.line(Math.min(issue.line, state.doc.lines));
    const from = Math.min(line.from + (issue.column ?? 1) - 1, line.to);
    // Underline the rest of the member (to the end of the line), so the marker is visible.
    diagnostics.push({ from, to: Math.max(from + 1, line.to) > state.doc.length ? from : Math.max(from + 1, line.to), severity: issue.severity, message: `${issue.code}: ${issue.message}`, source: issue.path || "/" });
  }
  return diagnostics;
}

/** The table as text in CodeMirror 6 (bundled with the app), with the validator's findings as inline diagnostics. */
export const RawJsonView = forwardRef<RawJsonHandle, Props>(function RawJsonView({ text, issues, readOnly, label, height, onChange }, ref) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | undefined>(undefined);
  const changeRef = useRef(onChange);
  changeRef.current = onChange;

  useEffect(() => {
    if (!host.current) return;
    const editor = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: text,
        extensions: [
          lineNumbers(),
          foldGutter(),
          history(),
          bracketMatching(),
          highlightActiveLine(),
          syntaxHighlighting(defaultHighlightStyle),
          json(),
          lintGutter(),
          keymap.of([...defaultKeymap, ...historyKeymap]),
          EditorState.readOnly.of(readOnly),
          EditorView.contentAttributes.of({ "aria-label": label }),
          EditorView.theme({ "&": { height: `${height}px`, fontSize: "12px" }, ".cm-scroller": { fontFamily: "var(--font-mono)" } }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged && update.transactions.some((tr) => tr.isUserEvent("input") || tr.isUserEvent("delete") || tr.isUserEvent("undo") || tr.isUserEvent("redo") || tr.isUserEvent("move"))) {
              changeRef.current(update.state.doc.toString());
            }
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = undefined;
    };
    // The editor is created once; text and findings are pushed in by the effects below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [readOnly, height, label]);

  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    if (editor.state.doc.toString() !== text) editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: text } });
  }, [text]);

  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    editor.dispatch(setDiagnostics(editor.state, toDiagnostics(editor.state, issues)));
  }, [issues, text]);

  useImperativeHandle(ref, () => ({
    select(line, column) {
      const editor = view.current;
      if (!editor) return;
      const target = editor.state.doc.line(Math.min(Math.max(line, 1), editor.state.doc.lines));
      const position = Math.min(target.from + column - 1, target.to);
      editor.dispatch({ selection: { anchor: position }, effects: EditorView.scrollIntoView(position, { y: "center" }) });
      editor.focus();
    },
  }), []);

  return <div ref={host} data-testid="raw-json" style={{ border: "1px solid var(--ant-color-border, #d9d9d9)", borderRadius: 6 }} />;
});
