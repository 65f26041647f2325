/**
 * Import cycles among the project's own TypeScript files (ARCHITECTURE.md: "No import cycles, type-only imports
 * aside"), found on one graph built once per run. ESLint's `import/no-cycle` answered the same question file by file
 * and was two thirds of `npm run lint` (55 of 81 s of rule time on 2 cores); its precomputed graph (SCC) crashes on
 * text linted under a path that is not on disk. Here each file is parsed once by TypeScript (no type checking), its
 * imports resolved through tsconfig.json (the `@/` alias), and the strongly connected components found (Tarjan).
 *
 * What counts as an edge, as `import/no-cycle` counted it: static imports and re-exports, and `import()`; not
 * `import type`/`export type`, nor an import whose every name is `type` (they vanish at compile time). Tests are
 * left out, as the lint rule left them out (eslint.config.mjs).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/** eslint.config.mjs's `tests` and `ignores`, as path tests on a file relative to the root. */
const leftOut = [/\.test\.tsx?$/, /^e2e\//, /^test\//, /^\.next/, /^\.data\//, /^node_modules\//, /^db\/migrations\//, /\.d\.ts$/];

export interface ImportEdge {
  from: string;
  to: string;
  /** 1-based line of the import in `from`. */
  line: number;
}

/** The project's files from tsconfig.json, relative to `root`, tests and build output left out. */
export function projectFiles(root: string): { files: string[]; options: ts.CompilerOptions } {
  const configPath = path.join(root, "tsconfig.json");
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  if (config.error) throw new Error(`tsconfig.json: ${ts.flattenDiagnosticMessageText(config.error.messageText, "\n")}`);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const files = parsed.fileNames.map((file) => path.relative(root, file)).filter((file) => !leftOut.some((pattern) => pattern.test(file)));
  return { files, options: parsed.options };
}

const typeOnlyImport = (node: ts.ImportDeclaration): boolean => {
  const clause = node.importClause;
  if (!clause) return false; // `import "x"` runs x
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return !clause.name && named !== undefined && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((element) => element.isTypeOnly);
};

const typeOnlyExport = (node: ts.ExportDeclaration): boolean =>
  node.isTypeOnly || (node.exportClause !== undefined && ts.isNamedExports(node.exportClause) && node.exportClause.elements.length > 0 && node.exportClause.elements.every((element) => element.isTypeOnly));

/** The module specifiers a file imports at run time, with their lines. */
function runtimeSpecifiers(file: string, text: string): { specifier: string; line: number }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: { specifier: string; line: number }[] = [];
  const add = (literal: ts.Expression) => {
    if (ts.isStringLiteralLike(literal)) found.push({ specifier: literal.text, line: source.getLineAndCharacterOfPosition(literal.getStart(source)).line + 1 });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) {
      if (!typeOnlyImport(node)) add(node.moduleSpecifier);
      return;
    }
    if (ts.isExportDeclaration(node)) {
      if (node.moduleSpecifier && !typeOnlyExport(node)) add(node.moduleSpecifier);
      return;
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0]) add(node.arguments[0]);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every run-time import from one project file to another. */
export function importEdges(root: string, files: string[], options: ts.CompilerOptions, read: (file: string) => string = (file) => readFileSync(path.join(root, file), "utf8")): ImportEdge[] {
  const known = new Set(files);
  const cache = ts.createModuleResolutionCache(root, (name) => name, options);
  const edges: ImportEdge[] = [];
  for (const from of files) {
    for (const { specifier, line } of runtimeSpecifiers(from, read(from))) {
      const resolved = ts.resolveModuleName(specifier, path.join(root, from), options, ts.sys, cache).resolvedModule;
      if (!resolved || resolved.isExternalLibraryImport) continue;
      const to = path.relative(root, resolved.resolvedFileName);
      if (known.has(to)) edges.push({ from, to, line });
    }
  }
  return edges;
}

/** The cycles of the graph: one per strongly connected component of more than one file (or a file importing itself), as the edges of one closed path through it. */
export function importCycles(edges: ImportEdge[]): ImportEdge[][] {
  const out = new Map<string, ImportEdge[]>();
  for (const edge of edges) {
    if (!out.has(edge.from)) out.set(edge.from, []);
    out.get(edge.from)!.push(edge);
  }
  // Tarjan's algorithm, iterative (a deep import chain must not overflow the stack).
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  for (const start of [...out.keys()].sort()) {
    if (index.has(start)) continue;
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const successors = out.get(frame.node) ?? [];
      if (frame.next < successors.length) {
        const to = successors[frame.next++]!.to;
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, next: 0 });
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfLoop = (out.get(frame.node) ?? []).some((edge) => edge.to === frame.node);
        if (component.length > 1 || selfLoop) components.push(component.sort());
      }
    }
  }
  return components.map((component) => closedPath(component, out));
}

/** A shortest closed path from the component's first file back to it, staying inside the component (breadth first). */
function closedPath(component: string[], out: Map<string, ImportEdge[]>): ImportEdge[] {
  const members = new Set(component);
  const start = component[0]!;
  const via = new Map<string, ImportEdge>();
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    for (const edge of out.get(queue[head]!) ?? []) {
      if (!members.has(edge.to)) continue;
      if (edge.to === start) {
        const path: ImportEdge[] = [edge];
        for (let at = edge.from; at !== start; at = via.get(at)!.from) path.unshift(via.get(at)!);
        return path;
      }
      if (!via.has(edge.to)) {
        via.set(edge.to, edge);
        queue.push(edge.to);
      }
    }
  }
  throw new Error(`no closed path in the component of ${start}`);
}

/** One line per cycle: `a.ts:3 → b.ts:7 → a.ts`. */
export const describeCycle = (cycle: ImportEdge[]): string => `${cycle.map((edge) => `${edge.from}:${edge.line}`).join(" → ")} → ${cycle[0]!.from}`;
