/**
 * The page and server-action half of the authorisation matrix (app/authorization.int.test.ts covers route
 * handlers): every page under app/ must call requirePage(...) and every exported server action must call
 * requireAction(...), except the pages listed as public. A new page or action without its check fails here.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const appDir = path.resolve(__dirname);
const publicPages = new Set(["sign-in/page.tsx"]);

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? files(full) : [full];
  });
}

const all = files(appDir).filter((file) => /\.(ts|tsx)$/.test(file) && !/\.test\.tsx?$/.test(file));

describe("pages and server actions check permissions", () => {
  it("every page calls requirePage (or is listed as public)", () => {
    const pages = all.filter((file) => /(^|\/)page\.tsx$/.test(file)).map((file) => path.relative(appDir, file));
    expect(pages.length).toBeGreaterThan(0);
    const unguarded = pages.filter((page) => !publicPages.has(page) && !/\brequirePage\(/.test(readFileSync(path.join(appDir, page), "utf8")));
    expect(unguarded).toEqual([]);
  });

  it("every exported server action calls requireAction", () => {
    const unguarded: string[] = [];
    for (const file of all) {
      const source = readFileSync(file, "utf8");
      if (!/^\s*["']use server["'];?/m.test(source.split("\n").slice(0, 3).join("\n"))) continue;
      // Each exported async function's body, up to the next top-level export.
      const chunks = source.split(/\n(?=export )/).filter((chunk) => /^export (default )?async function/.test(chunk));
      for (const chunk of chunks) {
        if (!/\brequireAction\(/.test(chunk)) unguarded.push(`${path.relative(appDir, file)}: ${/function (\w+)/.exec(chunk)?.[1] ?? "?"}`);
      }
    }
    expect(unguarded).toEqual([]);
  });
});
