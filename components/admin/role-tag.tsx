"use client";

import { Tag } from "antd";
import { useTranslations } from "next-intl";
import type { Role } from "@/lib/auth/roles";

const colors = { viewer: "default", editor: "blue", admin: "purple" } as const;

export function RoleTag({ role }: { role: Role }) {
  const t = useTranslations("roles");
  return <Tag color={colors[role]}>{t(role)}</Tag>;
}

export function useRoleOptions() {
  const t = useTranslations("roles");
  return (["viewer", "editor", "admin"] as const).map((role) => ({ value: role, label: `${t(role)} (${t(`${role}Help`)})` }));
}
