"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";

interface UrlSchema<T> {
  parse(input: unknown): T;
}

/** The page's state in the URL as it is now (`location.search`), not as last rendered (see useUrlState). */
export function urlStateNow<T>(schema: UrlSchema<T>): T {
  return stateOf(schema, new URLSearchParams(window.location.search));
}

const stateOf = <T,>(schema: UrlSchema<T>, params: Iterable<[string, string]>): T => schema.parse(Object.fromEntries(params));

/**
 * A page's state kept in its URL: the state as rendered, and `navigate(next, mode)`, which writes `next` over the URL's
 * current state (push: a history entry; replace: typing, say). Merged with the URL as it is when called, not as last
 * rendered: Next.js hands a history change to useSearchParams in a transition, so two changes in a row (a name typed,
 * then a cluster chosen) would otherwise build the second from a state without the first, and lose it (seen in e2e on
 * the rank-table list under load).
 */
export function useUrlState<T extends object>(schema: UrlSchema<T>, toQuery: (state: T) => string) {
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const state = useMemo(() => stateOf(schema, searchParams), [schema, searchParams]);
  const navigate = useCallback(
    (next: Partial<T>, mode: "push" | "replace" = "push") => {
      const query = toQuery({ ...urlStateNow(schema), ...next });
      const url = query ? `${pathname}?${query}` : pathname;
      if (mode === "push") window.history.pushState(null, "", url);
      else window.history.replaceState(null, "", url);
    },
    [schema, toQuery, pathname],
  );
  return [state, navigate] as const;
}
