import type { ReactNode } from "react";
import { CurrentUserProvider, type CurrentUser } from "@/components/auth/current-user";
import { AppShell } from "@/components/shell/app-shell";
import { requirePage } from "@/server/auth/page";

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  // Every console page needs a signed-in user; pages check again themselves (layouts are not re-run on navigation).
  const principal = await requirePage("read");
  const user: CurrentUser =
    principal.kind === "user"
      ? { id: principal.id, username: principal.username, name: principal.name, role: principal.role }
      : { id: `token:${principal.id}`, username: principal.name, name: principal.name, role: principal.role };
  return (
    <CurrentUserProvider user={user}>
      <AppShell>{children}</AppShell>
    </CurrentUserProvider>
  );
}
