/** Shared shapes of the affinity parsers' reports: a bilingual text and a line kept because it was not understood. */

export interface Bilingual {
  readonly en: string;
  readonly zh: string;
}

/** A line a parser did not understand: kept with its 1-based number so the user sees what was skipped. */
export interface UnknownLine {
  readonly line: number;
  readonly text: string;
}

/** A line that looked like a known field but whose value could not be read. */
export interface ParseProblem {
  readonly line: number;
  readonly text: string;
  readonly message: Bilingual;
}

/** Lines of a pasted text, without the terminal's carriage returns and colour escapes. */
export function splitLines(text: string): string[] {
  // ANSI colour codes from a terminal paste.
  return text.replace(/\u001b\[[0-9;]*m/g, "").replace(/\r\n?/g, "\n").split("\n");
}
