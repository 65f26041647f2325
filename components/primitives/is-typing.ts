/**
 * Whether a key press goes to a field being typed in (inputs, text areas, selects, editable content, the CodeMirror
 * editor), where keys such as `/`, Esc or Ctrl+Z belong to the field rather than to the page's shortcuts.
 */
export function isTyping(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return !!element?.closest?.("input, textarea, select, [contenteditable=''], [contenteditable='true'], .cm-editor");
}
