import { rmSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isRunning } from "@/db/embedded";

/** The checkout this file is in (runners work from any directory). */
export const checkout = fileURLToPath(new URL("..", import.meta.url));

/**
 * One user of the shared .next-e2e build (scripts/production-build.ts) at a time per checkout (the e2e runner, the
 * hostile-input suite, the cluster test, `npm run bundle`, the browser bench). A lock whose holder died is taken over.
 * The returned function releases it; process exit releases it too. The checkout is this file's, not the working
 * directory, so runners started from anywhere share one lock.
 */
export async function lockCheckout(): Promise<() => void> {
  const lockDir = path.join(os.tmpdir(), `rankscope-e2e-${Buffer.from(checkout).toString("hex").slice(-24)}.lock`);
  for (let announced = false; ; ) {
    try {
      await mkdir(lockDir);
      await writeFile(path.join(lockDir, "pid"), String(process.pid));
      const release = () => rmSync(lockDir, { recursive: true, force: true });
      process.on("exit", release);
      return release;
    } catch {
      const holder = Number(await readFile(path.join(lockDir, "pid"), "utf8").catch(() => "0"));
      if (holder > 0 && !isRunning(holder)) {
        await rm(lockDir, { recursive: true, force: true });
        continue;
      }
      if (!announced) console.error(`waiting for ${lockDir}: another e2e run or browser bench is using .next-e2e`);
      announced = true;
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
}
