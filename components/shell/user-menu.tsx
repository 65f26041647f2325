"use client";

import { DownOutlined, LogoutOutlined, UserOutlined } from "@ant-design/icons";
import { App, Button, Dropdown, Space, Tag } from "antd";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useCurrentUser } from "@/components/auth/current-user";

const roleColors = { viewer: "default", editor: "blue", admin: "purple" } as const;

/** The signed-in user and role, with sign-out and sign-out everywhere. */
export function UserMenu() {
  const t = useTranslations();
  const user = useCurrentUser();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const router = useRouter();

  async function signOut(everywhere: boolean) {
    setBusy(true);
    try {
      const response = await fetch(everywhere ? "/api/auth/sign-out-everywhere" : "/api/auth/sign-out", { method: "POST" });
      if (!response.ok && response.status !== 401) throw new Error(`HTTP ${response.status}`);
      router.replace("/sign-in");
      router.refresh();
    } catch (error) {
      setBusy(false);
      message.error(t("topbar.signOutFailed", { message: (error as Error).message }));
    }
  }

  return (
    <Dropdown
      trigger={["click"]}
      menu={{
        items: [
          { key: "who", type: "group", label: t("topbar.signedInAs", { name: user.name }) },
          { type: "divider" },
          { key: "sign-out", icon: <LogoutOutlined />, label: t("topbar.signOut"), onClick: () => void signOut(false) },
          { key: "sign-out-everywhere", icon: <LogoutOutlined />, label: t("topbar.signOutEverywhere"), onClick: () => void signOut(true) },
        ],
      }}
    >
      <Button type="text" loading={busy} aria-label={`${t("topbar.account")}: ${user.username} (${t(`roles.${user.role}`)})`}>
        <Space size={6}>
          <UserOutlined />
          <span>{user.username}</span>
          <Tag color={roleColors[user.role]} style={{ marginInlineEnd: 0 }}>
            {t(`roles.${user.role}`)}
          </Tag>
          <DownOutlined style={{ fontSize: 10 }} />
        </Space>
      </Button>
    </Dropdown>
  );
}
