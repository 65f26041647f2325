#!/usr/bin/env node
// The `rankscope` bin: registers tsx (a runtime dependency) so Node can load the TypeScript CLI, then runs it.
// The project's tsconfig is named explicitly so its path aliases (`@/…`) resolve from any working directory.
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

register({ tsconfig: fileURLToPath(new URL("../tsconfig.json", import.meta.url)) });
const { main } = await import("./cli/index.ts");
await main();
