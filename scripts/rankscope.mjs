#!/usr/bin/env node
// The `rankscope` bin: registers tsx (a runtime dependency) so Node can load the TypeScript CLI, then runs it.
import { register } from "tsx/esm/api";

register();
const { main } = await import("./cli/index.ts");
await main();
