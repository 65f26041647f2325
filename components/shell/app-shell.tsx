"use client";

import {
  AlertOutlined,
  ApartmentOutlined,
  ApiOutlined,
  AuditOutlined,
  DashboardOutlined,
  FileSearchOutlined,
  KeyOutlined,
  MoonOutlined,
  NodeIndexOutlined,
  ScheduleOutlined,
  SunOutlined,
  TeamOutlined,
} from "@ant-design/icons";
import { Layout, Menu, Segmented, Space, Typography, theme as antTheme } from "antd";
import { Link } from "@/components/primitives/link";
import { usePathname } from "next/navigation";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { useThemeControl } from "@/components/providers/app-providers";
import type { ThemeName } from "@/components/providers/preferences";
import { ClusterSwitcher } from "./cluster-switcher";
import { GlobalSearch } from "./global-search";
import { LanguageSwitcher } from "./language-switcher";
import { useCan } from "@/components/auth/current-user";
import { activeNavKey, adminNavItems, navItems, type NavKey } from "./nav-items";
import { UserMenu } from "./user-menu";
import { useHydratedMark } from "@/components/primitives/use-hydrated-mark";

const navIcons: Record<NavKey, ReactNode> = {
  overview: <DashboardOutlined />,
  topology: <ApartmentOutlined />,
  rankTables: <FileSearchOutlined />,
  jobs: <ScheduleOutlined />,
  faults: <AlertOutlined />,
  ports: <ApiOutlined />,
  affinity: <NodeIndexOutlined />,
  users: <TeamOutlined />,
  tokens: <KeyOutlined />,
  audit: <AuditOutlined />,
};

export function AppShell({ children }: { children: ReactNode }) {
  const t = useTranslations();
  // Every console page's: the shell's effect runs after its page's, in the hydration's commit.
  useHydratedMark();
  const pathname = usePathname();
  const { token } = antTheme.useToken();
  const { theme, setTheme } = useThemeControl();
  const isAdmin = useCan("admin");
  const menuItem = (item: { key: NavKey; href: string }) => ({
    key: item.key,
    icon: navIcons[item.key],
    label: <Link href={item.href}>{t(`nav.${item.key}`)}</Link>,
  });

  return (
    <Layout style={{ minHeight: "100vh" }}>
      <a className="skip-link" href="#main">
        {t("app.skipToContent")}
      </a>
      <Layout.Sider breakpoint="lg" collapsedWidth={56} width={208} theme={theme} style={{ borderRight: `1px solid ${token.colorBorderSecondary}` }}>
        <div style={{ padding: "14px 20px" }}>
          <Typography.Text strong style={{ fontSize: 17 }}>
            Rankscope
          </Typography.Text>
        </div>
        <nav aria-label={t("nav.label")}>
          <Menu
            mode="inline"
            theme={theme}
            selectedKeys={[activeNavKey(pathname)]}
            items={[
              ...navItems.map(menuItem),
              ...(isAdmin ? [{ key: "admin", type: "group" as const, label: t("nav.admin"), children: adminNavItems.map(menuItem) }] : []),
            ]}
            style={{ borderInlineEnd: "none" }}
          />
        </nav>
      </Layout.Sider>
      <Layout>
        <Layout.Header
          style={{
            display: "flex",
            alignItems: "center",
            justifyContent: "space-between",
            gap: 16,
            padding: "0 20px",
            background: token.colorBgContainer,
            borderBottom: `1px solid ${token.colorBorderSecondary}`,
          }}
        >
          <Space size="middle">
            <ClusterSwitcher />
            <GlobalSearch />
          </Space>
          <Space size="middle">
            <LanguageSwitcher />
            <Segmented
              aria-label={t("topbar.theme")}
              value={theme}
              onChange={(value) => setTheme(value as ThemeName)}
              options={[
                { value: "light", icon: <SunOutlined />, label: t("topbar.light") },
                { value: "dark", icon: <MoonOutlined />, label: t("topbar.dark") },
              ]}
            />
            <UserMenu />
          </Space>
        </Layout.Header>
        <Layout.Content id="main" tabIndex={-1} style={{ padding: 20 }} role="main">
          {children}
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
