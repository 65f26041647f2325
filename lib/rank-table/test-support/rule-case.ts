import type { JsonValue, RuleCode, Severity } from "../model";

/** One rule's test: a table that triggers it (code, severity, path, message) and a near miss that must not. */
export interface RuleCase {
  code: RuleCode;
  /** What the case shows, for the test name. */
  name: string;
  trigger: JsonValue | string;
  path: string;
  /** Fragments the English message must contain (the values involved, the earlier place). */
  message: string[];
  severity?: Severity;
  /** A table close to the trigger that must not raise the code. */
  clean: JsonValue | string;
  /** How many times the code must be reported (default: at least once). */
  count?: number;
}
