"use client";

import { createContext, useContext, type ReactNode } from "react";
import { can, type Permission, type Role } from "@/lib/auth/roles";

export interface CurrentUser {
  id: string;
  username: string;
  name: string;
  role: Role;
}

const CurrentUserContext = createContext<CurrentUser | null>(null);

export function CurrentUserProvider({ user, children }: { user: CurrentUser; children: ReactNode }) {
  return <CurrentUserContext.Provider value={user}>{children}</CurrentUserContext.Provider>;
}

/** The signed-in user (inside the console layout). */
export function useCurrentUser(): CurrentUser {
  const user = useContext(CurrentUserContext);
  if (!user) throw new Error("useCurrentUser must be used inside the console layout");
  return user;
}

/**
 * Whether the signed-in user may do something, to hide controls they may not use:
 * `{useCan("write") && <Button>Save</Button>}`. Only cosmetic: the server checks every request again.
 */
export function useCan(permission: Permission): boolean {
  const user = useContext(CurrentUserContext);
  return can(user?.role, permission);
}
