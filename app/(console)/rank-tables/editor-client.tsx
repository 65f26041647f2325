"use client";

import { usePathname, useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Breadcrumb } from "antd";
import { Link } from "@/components/primitives/link";
import { PageHeading } from "@/components/primitives/page-heading";
import { RankTableWorkspace, type WorkspaceTab } from "@/components/rank-tables/workspace";
import type { RankTableDetail } from "@/db/schema/rank-table/validation";
import { buildFromInventoryAction, inventoryOutlineAction } from "./actions";

const inventoryActions = { outline: inventoryOutlineAction, build: buildFromInventoryAction };

/** A saved table (or a new one) in the workspace; the open view is in the URL (?tab=). */
export function RankTableEditorClient({ initial, initialTab }: { initial: RankTableDetail | undefined; initialTab: WorkspaceTab }) {
  const t = useTranslations("rankTables");
  const router = useRouter();
  const pathname = usePathname();
  const [tab, setTab] = useState<WorkspaceTab>(initialTab);
  return (
    <div>
      <Breadcrumb items={[{ title: <Link href="/rank-tables">{t("title")}</Link> }, { title: initial?.name ?? t("editor.newTitle") }]} style={{ marginBottom: 8 }} />
      <PageHeading title={initial?.name ?? t("editor.newTitle")} subtitle={t("editor.subtitle")} />
      <RankTableWorkspace
        initial={initial}
        inventoryActions={inventoryActions}
        tab={tab}
        onTabChange={(next) => {
          setTab(next);
          router.replace(next === "visual" ? pathname : `${pathname}?tab=${next}`, { scroll: false });
        }}
      />
    </div>
  );
}
