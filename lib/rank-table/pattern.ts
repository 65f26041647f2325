/**
 * Text patterns for generated values, e.g. "10.{server/256}.{server%256}.{device}" or "node_{pod}_{local}".
 * Inside braces: whole numbers, variables, + - * / % (integer division) and parentheses. Patterns are compiled
 * once into closures (no eval), so generating 131,072 devices stays cheap.
 */

import { DomainError } from "../errors";

export type PatternVariables = Readonly<Record<string, number>>;
export type CompiledPattern = (variables: PatternVariables) => string;
type Expression = (variables: PatternVariables) => number;

/** A pattern that cannot be compiled: the request is invalid as asked. */
export class PatternError extends DomainError {
  constructor(pattern: string, detail: string) {
    super("invalid", `pattern ${JSON.stringify(pattern)}: ${detail}`, { code: "invalid_pattern" });
    this.name = "PatternError";
  }
}

/** Compiles a pattern; `allowed` lists the variable names it may use. Throws PatternError on mistakes. */
export function compilePattern(pattern: string, allowed: readonly string[]): CompiledPattern {
  const pieces: (string | Expression)[] = [];
  let rest = 0;
  for (let open = pattern.indexOf("{"); open >= 0; open = pattern.indexOf("{", rest)) {
    const close = pattern.indexOf("}", open);
    if (close < 0) throw new PatternError(pattern, "a { is not closed");
    if (open > rest) pieces.push(pattern.slice(rest, open));
    pieces.push(new ExpressionParser(pattern, pattern.slice(open + 1, close), allowed).parse());
    rest = close + 1;
  }
  if (pattern.indexOf("}", rest) >= 0) throw new PatternError(pattern, "a } has no {");
  if (rest < pattern.length) pieces.push(pattern.slice(rest));
  return (variables) => {
    let text = "";
    for (const piece of pieces) text += typeof piece === "string" ? piece : String(piece(variables));
    return text;
  };
}

class ExpressionParser {
  private pos = 0;
  private readonly tokens: string[];

  constructor(private readonly pattern: string, source: string, private readonly allowed: readonly string[]) {
    this.tokens = source.match(/\d+|[A-Za-z_]\w*|[-+*/%()]|\S/g) ?? [];
  }

  parse(): Expression {
    const expression = this.sum();
    if (this.pos < this.tokens.length) this.fail(`unexpected ${this.tokens[this.pos]}`);
    return expression;
  }

  private fail(detail: string): never {
    throw new PatternError(this.pattern, detail);
  }

  private sum(): Expression {
    let left = this.product();
    for (let op = this.tokens[this.pos]; op === "+" || op === "-"; op = this.tokens[this.pos]) {
      this.pos++;
      const a = left, b = this.product();
      left = op === "+" ? (v) => a(v) + b(v) : (v) => a(v) - b(v);
    }
    return left;
  }

  private product(): Expression {
    let left = this.factor();
    for (let op = this.tokens[this.pos]; op === "*" || op === "/" || op === "%"; op = this.tokens[this.pos]) {
      this.pos++;
      const a = left, b = this.factor();
      if (op === "*") left = (v) => a(v) * b(v);
      else if (op === "/") left = (v) => Math.floor(a(v) / b(v));
      else left = (v) => a(v) % b(v);
    }
    return left;
  }

  private factor(): Expression {
    const token = this.tokens[this.pos++];
    if (token === undefined) return this.fail("an expression is incomplete");
    if (/^\d+$/.test(token)) {
      const value = Number(token);
      return () => value;
    }
    if (token === "(") {
      const inner = this.sum();
      if (this.tokens[this.pos++] !== ")") this.fail("a ( is not closed");
      return inner;
    }
    if (/^[A-Za-z_]/.test(token)) {
      if (!this.allowed.includes(token)) this.fail(`unknown variable ${token} (use ${this.allowed.join(", ")})`);
      return (v) => v[token]!;
    }
    return this.fail(`unexpected ${token}`);
  }
}
