"use client";

import { useCallback, useState } from "react";
import { parseRankTable, type JsonValue } from "@/lib/rank-table";
import type { Edit } from "@/lib/rank-table-workspace/edit";
import { applyEditTo, redoEdit, showTable, startEditing, undoEdit, type EditorState } from "@/lib/rank-table-workspace/editor-state";

/**
 * The table being edited with its undo/redo history, and the JSON view's text while it does not parse (the visual
 * editor keeps the last table that did). An edit, undo or redo drops that text: the JSON view then shows the table.
 * `state` is undefined until a table is opened.
 */
export function useHistory(opened: JsonValue | undefined) {
  const [state, setState] = useState<EditorState | undefined>(() => (opened === undefined ? undefined : startEditing(opened)));
  const [rawText, setRawText] = useState<string | undefined>();

  const edit = useCallback((change: Edit) => {
    setState((current) => current && applyEditTo(current, change));
    setRawText(undefined);
  }, []);
  const undo = useCallback(() => {
    setState((current) => current && undoEdit(current));
    setRawText(undefined);
  }, []);
  const redo = useCallback(() => {
    setState((current) => current && redoEdit(current));
    setRawText(undefined);
  }, []);
  /** Opens a table with a new history; `null` with the text that is not JSON, which the JSON view then shows. */
  const start = useCallback((table: JsonValue, unparsedText?: string) => {
    setState(startEditing(table));
    setRawText(unparsedText);
  }, []);
  /** A table from elsewhere (a save's answer, a merge, someone else's revision) as one undoable step. */
  const show = useCallback((table: JsonValue) => setState((current) => current && showTable(current, table)), []);
  /** Text typed in the JSON view: kept as typed, and a step of the history whenever it parses. */
  const type = useCallback((text: string) => {
    setRawText(text);
    const value = parseRankTable(text).value;
    if (value !== undefined) setState((current) => current && showTable(current, value));
  }, []);

  return { state, rawText, edit, undo, redo, start, show, type };
}
