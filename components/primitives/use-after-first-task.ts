"use client";

import { startTransition, useEffect, useState } from "react";

/**
 * False for a component's first commit, true from a task after it (in a transition): what it shows behind this mounts
 * in a task of its own, not in the one that mounts the component. A commit that measures on mount (antd's Table and
 * Tabs read their boxes in layout effects) lays out everything mounted with it, in that task (issue 21: no task over
 * 50 ms after hydration).
 */
export function useAfterFirstTask(): boolean {
  const [after, setAfter] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => startTransition(() => setAfter(true)), 0);
    return () => clearTimeout(timer);
  }, []);
  return after;
}
