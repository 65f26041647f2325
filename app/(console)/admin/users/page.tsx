import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { appDatabase } from "@/db/client";
import { listUsers } from "@/db/queries/users";
import { requirePage } from "@/server/auth/page";
import { UsersClient } from "./client";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.users"))("title") };
}

export default async function UsersPage() {
  await requirePage("admin", "/admin/users");
  return <UsersClient initialUsers={await listUsers(appDatabase().db)} />;
}
