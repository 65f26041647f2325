/**
 * What the workspace edits, as one value: the undo/redo history of tables, the edit that produced the present table
 * (so the validation worker receives only that edit, not the table), and the grid rows and tree of the present table,
 * derived from the previous ones so that what an edit did not touch keeps its objects (and its rendered rows).
 * An edit, undo or redo that changes nothing returns the state it was given, so React skips the render.
 */
import type { JsonValue } from "@/lib/rank-table";
import { applyEdit, pushHistory, redo, startHistory, undo, type Edit, type History } from "./edit";
import { tableStructure, type TableStructure } from "./structure";

export interface EditorState {
  history: History;
  /** The edit that turned `from` into `history.present`; undefined after any other step (undo, a table from elsewhere). */
  lastEdit: { edit: Edit; from: JsonValue } | undefined;
  /** Grid rows and tree of `history.present`. */
  structure: TableStructure;
}

/** The structure of no table at all (nothing opened yet). */
export const NO_STRUCTURE = tableStructure(undefined);

const next = (previous: EditorState | undefined, history: History, lastEdit?: EditorState["lastEdit"]): EditorState => ({ history, lastEdit, structure: tableStructure(history.present, previous?.structure) });

/** A table opened (saved, imported, or `null` for text that is not JSON) with a history of its own. */
export function startEditing(table: JsonValue): EditorState {
  return next(undefined, startHistory(table));
}

/** One undoable edit. */
export function applyEditTo(state: EditorState, edit: Edit): EditorState {
  const table = applyEdit(state.history.present, edit);
  if (table === state.history.present) return state;
  return next(state, pushHistory(state.history, table), { edit, from: state.history.present });
}

/** A table from elsewhere (typed JSON, a save's answer, a merge, someone else's revision) as one undoable step. */
export function showTable(state: EditorState, table: JsonValue): EditorState {
  return next(state, pushHistory(state.history, table));
}

export function undoEdit(state: EditorState): EditorState {
  return state.history.past.length ? next(state, undo(state.history)) : state;
}

export function redoEdit(state: EditorState): EditorState {
  return state.history.future.length ? next(state, redo(state.history)) : state;
}
