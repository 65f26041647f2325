/**
 * `npm run bench [-- SECTION...]`: runs benchmark sections and prints their figures. Sections live in their own
 * modules and are listed here; other features add theirs. Benchmarks print; they never assert timings.
 */
import { diagnoseBench } from "./diagnose";
import { editorBench } from "./editor";
import { editorBrowserBench } from "./editor-browser";
import { editorIncrementalBench } from "./editor-incremental";
import { editorReaderBench } from "./editor-reader";
import { editorWorkersBench } from "./editor-workers";
import { fabricBench } from "./fabric";
import { jobPageBench } from "./job-page";
import { loadBench } from "./load";
import { faultQueriesBench } from "./fault-queries";
import { faultReadsBench } from "./fault-reads";
import { faultsBench } from "./faults";
import { portsBench } from "./ports";
import { rankTableBench } from "./rank-table";
import { rankTableStreamSaveBench } from "./rank-table-stream-save";
import { rateLimitBench } from "./rate-limit";
import { reportBench } from "./report";
import { scaleBench } from "./scale";
import { sseBench } from "./sse";
import { topologyBench } from "./topology";
import { topologyPagesBench } from "./topology-pages";

export interface BenchSection {
  name: string;
  description: string;
  run(): Promise<void>;
}

const SECTIONS: readonly BenchSection[] = [
  rankTableBench,
  rankTableStreamSaveBench,
  topologyBench,
  editorBench,
  editorBrowserBench,
  editorIncrementalBench,
  editorReaderBench,
  editorWorkersBench,
  faultsBench,
  faultQueriesBench,
  faultReadsBench,
  reportBench,
  diagnoseBench,
  portsBench,
  rateLimitBench,
  fabricBench,
  scaleBench,
  jobPageBench,
  topologyPagesBench,
  sseBench,
  loadBench,
];

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((name) => !SECTIONS.some((section) => section.name === name));
  if (unknown.length > 0) {
    console.error(`unknown bench section(s): ${unknown.join(", ")}; available: ${SECTIONS.map((section) => section.name).join(", ")}`);
    process.exitCode = 2;
    return;
  }
  for (const section of SECTIONS) {
    if (wanted.length > 0 && !wanted.includes(section.name)) continue;
    console.log(`\n## ${section.name}: ${section.description}\n`);
    await section.run();
  }
}

await main();
