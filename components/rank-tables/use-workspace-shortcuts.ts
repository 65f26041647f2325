"use client";

import { useEffect } from "react";
import { isTyping } from "@/components/primitives/is-typing";

interface Options {
  /** Whether Ctrl+S saves now (the user may write and there is unsaved work); it never reaches the browser either way. */
  canSave: boolean;
  save: () => unknown;
  undo: () => void;
  redo: () => void;
}

/** Ctrl+S saves, anywhere; Ctrl+Z undoes and Ctrl+Shift+Z (or Ctrl+Y) redoes outside text fields, which keep their own undo. */
export function useWorkspaceShortcuts({ canSave, save, undo, redo }: Options) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey)) return;
      const key = event.key.toLowerCase();
      if (key === "s") {
        event.preventDefault();
        if (canSave) void save();
        return;
      }
      if (isTyping(event.target)) return;
      if (key === "z" && !event.shiftKey) {
        event.preventDefault();
        undo();
      } else if ((key === "z" && event.shiftKey) || key === "y") {
        event.preventDefault();
        redo();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [canSave, save, undo, redo]);
}
