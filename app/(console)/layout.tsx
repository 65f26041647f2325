import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { CurrentUserProvider, type CurrentUser } from "@/components/auth/current-user";
import { clustersQueryKey } from "@/components/clusters/queries";
import { AppShell } from "@/components/shell/app-shell";
import { listClusterSummaries } from "@/db/queries/inventory";
import { requirePage } from "@/server/auth/page";
import { readForPage } from "@/server/http/read-routing";

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  // Every console page needs a signed-in user; pages check again themselves (layouts are not re-run on navigation).
  const principal = await requirePage("read");
  const user: CurrentUser =
    principal.kind === "user"
      ? { id: principal.id, username: principal.username, name: principal.name, role: principal.role }
      : { id: `token:${principal.id}`, username: principal.name, name: principal.name, role: principal.role };
  // The cluster list comes with the page (the shell's cluster switcher and search, the overview): fetched after
  // hydration, its answer re-rendered the shell in one task of 60-125 ms at 524,288 NPUs (issue 21). Warm, it is
  // one small query (listClusterSummaries keeps the counts per inventory revision).
  const clusters = new QueryClient();
  clusters.setQueryData(clustersQueryKey, (await readForPage(({ db }) => listClusterSummaries(db))).value);
  return (
    <CurrentUserProvider user={user}>
      <HydrationBoundary state={dehydrate(clusters)}>
        <AppShell>{children}</AppShell>
      </HydrationBoundary>
    </CurrentUserProvider>
  );
}
