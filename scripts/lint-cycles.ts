/**
 * `npm run lint`'s second half: fails when the project's files import each other in a cycle (scripts/import-cycles.ts),
 * naming each cycle by file and line. Resolves from this file, so it runs from any directory.
 */
import { fileURLToPath } from "node:url";
import { describeCycle, importCycles, importEdges, projectFiles } from "./import-cycles";

const root = fileURLToPath(new URL("..", import.meta.url));
const started = performance.now();
const { files, options } = projectFiles(root);
const cycles = importCycles(importEdges(root, files, options));
for (const cycle of cycles) console.error(`import cycle: ${describeCycle(cycle)}`);
const summary = `${files.length} files, ${cycles.length} import cycle${cycles.length === 1 ? "" : "s"} (${((performance.now() - started) / 1000).toFixed(1)} s)`;
if (cycles.length > 0) {
  console.error(`${summary}: a module that imports itself through others (type-only imports aside) runs before what it needs is defined.`);
  process.exit(1);
}
console.log(summary);
