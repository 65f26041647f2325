import { z } from "zod";

/**
 * What PostgreSQL cannot store, checked once where text enters (every zod schema that carries text to the database,
 * and the query string): a NUL character (text and jsonb refuse U+0000: "invalid byte sequence" / "unsupported
 * Unicode escape sequence") and a lone UTF-16 surrogate (`\ud800`, which JSON.stringify escapes and jsonb refuses).
 * Such input is refused as invalid (422) naming the field, and in per-item batches only that item. JSON kept as it
 * was sent (`raw`) is also bounded in depth and size: a value nested 5,000 deep made JSON.stringify throw.
 */
export const storableJsonLimits = { maxDepth: 32, maxLength: 64 * 1024 } as const;

const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why the text cannot be stored (for the message), or undefined when it can. */
export function unstorableText(text: string): string | undefined {
  const nul = text.indexOf("\u0000");
  if (nul !== -1) return `contains a NUL character (U+0000) at position ${nul}`;
  const lone = loneSurrogate.exec(text);
  if (lone) return `contains a lone UTF-16 surrogate (U+${lone[0].charCodeAt(0).toString(16).toUpperCase()}) at position ${lone.index}`;
  return undefined;
}

/**
 * Why a JSON value cannot be stored (with the pointer inside it), or undefined. Walks the value without recursion,
 * so depth is measured rather than overflowing the stack; the length counted is that of keys and scalars.
 */
export function unstorableJson(value: unknown, limits: { maxDepth: number; maxLength: number } = storableJsonLimits): string | undefined {
  const stack: Visit[] = [{ value, depth: 0, parent: undefined, key: "" }];
  let length = 0;
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const current = visit.value;
    if (typeof current === "string") {
      length += current.length;
      const problem = unstorableText(current);
      if (problem) return `${pointer(visit)} ${problem}`;
    } else if (current !== null && typeof current === "object") {
      if (visit.depth >= limits.maxDepth) return `${pointer(visit)} is nested deeper than ${limits.maxDepth} levels`;
      if (Array.isArray(current)) {
        for (let index = current.length - 1; index >= 0; index--) stack.push({ value: current[index], depth: visit.depth + 1, parent: visit, key: index });
        length += current.length;
      } else {
        for (const key in current) {
          length += key.length + 1;
          const keyProblem = unstorableText(key);
          if (keyProblem) return `a key of ${pointer(visit)} ${keyProblem}`;
          stack.push({ value: (current as Record<string, unknown>)[key], depth: visit.depth + 1, parent: visit, key });
        }
      }
    } else {
      length += 8;
    }
    if (length > limits.maxLength) return `the value is larger than ${limits.maxLength} characters`;
  }
  return undefined;
}

interface Visit {
  value: unknown;
  depth: number;
  parent: Visit | undefined;
  key: string | number;
}

/** The JSON Pointer of a visited value (built only for the message), keys cut to 40 characters. */
function pointer(visit: Visit): string {
  const keys: string[] = [];
  for (let at: Visit | undefined = visit; at?.parent; at = at.parent) {
    const key = String(at.key);
    keys.push(key.length > 40 ? `${key.slice(0, 40)}…` : key);
  }
  return keys.length === 0 ? "the value" : `/${keys.reverse().join("/")}`;
}

/** The zod issue's params: `reason` names the message (lib/faults/errors.ts), as the fault schemas' other checks do. */
const unstorableParams = { reason: "unstorable_text" } as const;

/** True for the issue `storable` or `storableJsonSchema` raised: the body is well-formed but its text cannot be stored (422). */
export function isUnstorableIssue(issue: z.core.$ZodIssue): boolean {
  const reason: unknown = issue.code === "custom" ? issue.params?.reason : undefined;
  return reason === "unstorable_text" || reason === "unstorable_json";
}

/** A string schema that refuses text the database cannot store. Use it for every text field that is stored or queried. */
export function storable<S extends z.ZodType<string | undefined | null>>(schema: S): S {
  return schema.superRefine((value, ctx) => {
    const problem = typeof value === "string" ? unstorableText(value) : undefined;
    if (problem) ctx.addIssue({ code: "custom", message: `the text ${problem}`, params: unstorableParams });
  }) as unknown as S;
}

/** JSON kept as sent (an event's `raw`): storable text, bounded depth and size. */
export const storableJsonSchema = z.unknown().superRefine((value, ctx) => {
  const problem = unstorableJson(value);
  if (problem) ctx.addIssue({ code: "custom", message: problem, params: { reason: "unstorable_json" } });
});

/** The first query parameter (or path segment) holding text the database cannot store, and why. */
export function unstorableUrlPart(url: URL): { name: string; problem: string } | undefined {
  for (const [name, value] of url.searchParams) {
    const problem = unstorableText(name) ?? unstorableText(value);
    if (problem) return { name, problem };
  }
  for (const segment of url.pathname.split("/")) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return { name: "path", problem: `has an invalid percent-encoding (${segment.slice(0, 40)})` };
    }
    const problem = unstorableText(decoded);
    if (problem) return { name: "path", problem };
  }
  return undefined;
}
