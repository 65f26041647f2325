import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { describeCycle, importCycles, importEdges, projectFiles, type ImportEdge } from "./import-cycles";

const root = fileURLToPath(new URL("..", import.meta.url));
const edge = (from: string, to: string, line = 1): ImportEdge => ({ from, to, line });

describe("importCycles", () => {
  it("finds none in a graph without cycles", () => {
    expect(importCycles([edge("a", "b"), edge("b", "c"), edge("a", "c")])).toEqual([]);
  });

  it("gives each strongly connected component as one closed path through it", () => {
    const cycles = importCycles([edge("a", "b", 1), edge("b", "c", 2), edge("c", "a", 3), edge("c", "d"), edge("d", "e", 4), edge("e", "d", 5)]);
    expect(cycles.map(describeCycle).sort()).toEqual(["a:1 → b:2 → c:3 → a", "d:4 → e:5 → d"]);
  });

  it("takes the shortest way back inside a component", () => {
    const [cycle] = importCycles([edge("a", "b"), edge("b", "c"), edge("c", "d"), edge("d", "a"), edge("b", "a", 9)]);
    expect(describeCycle(cycle!)).toBe("a:1 → b:9 → a");
  });

  it("counts a file that imports itself", () => {
    expect(importCycles([edge("a", "a", 7)]).map(describeCycle)).toEqual(["a:7 → a"]);
  });

  it("follows a chain deeper than the call stack would allow", () => {
    const chain = Array.from({ length: 50_000 }, (_, i) => edge(`f${i}`, `f${i + 1}`));
    expect(importCycles(chain)).toEqual([]);
    expect(importCycles([...chain, edge("f50000", "f0")])[0]).toHaveLength(50_001);
  });
});

describe("the project's files on disk", { timeout: 60_000 }, () => {
  const dir = `lib/cycle-probe-${process.pid}`;
  const write = (files: Record<string, string>) => {
    mkdirSync(path.join(root, dir), { recursive: true });
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(root, dir, name), text);
  };
  const probeCycles = () => {
    const { files, options } = projectFiles(root);
    return importCycles(importEdges(root, files, options))
      .map(describeCycle)
      .filter((cycle) => cycle.includes(dir));
  };
  afterEach(() => rmSync(path.join(root, dir), { recursive: true, force: true }));

  it("refuses a cycle, also through the @/ alias, re-exports and import()", () => {
    write({
      "a.ts": 'import { b } from "./b";\nexport const a = () => b;\n',
      "b.ts": `import { a } from "@/${dir}/a";\nexport const b = () => a;\n`,
      "c.ts": 'export { d } from "./d";\nexport const c = 1;\n',
      "d.ts": 'export const d = () => import("./c");\n',
    });
    expect(probeCycles().sort()).toEqual([`${dir}/a.ts:1 → ${dir}/b.ts:1 → ${dir}/a.ts`, `${dir}/c.ts:1 → ${dir}/d.ts:1 → ${dir}/c.ts`]);
  });

  it("lets type-only imports go round", () => {
    write({
      "a.ts": 'import type { B } from "./b";\nexport type A = { b?: B };\nexport const a = 1;\n',
      "b.ts": 'import { type A } from "./a";\nexport type { A as Again } from "./a";\nexport type B = { a?: A };\n',
    });
    expect(probeCycles()).toEqual([]);
  });

  it("leaves tests out, as the lint rules do", () => {
    write({ "a.ts": 'import "./a.test";\nexport const a = 1;\n', "a.test.ts": 'import { a } from "./a";\nexport const t = a;\n' });
    expect(probeCycles()).toEqual([]);
  });
});
