"use client";

import { useEffect } from "react";

/**
 * Marks the page hydrated (`performance.mark`), so the browser benches and e2e count only the long tasks after it:
 * the page's own fetching, rendering and drawing, apart from the framework's start-up (issue 21: "no main-thread
 * task over 50 ms after hydration"). Set once by the console's shell (components/shell/app-shell.tsx) for every
 * page; the name is the topology page's, the first page to set it.
 */
export function useHydratedMark(): void {
  useEffect(() => void performance.mark("topology:hydrated"), []);
}
