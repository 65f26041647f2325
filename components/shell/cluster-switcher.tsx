"use client";

import { Select } from "antd";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useTranslations } from "next-intl";
import { useClusters } from "@/components/clusters/use-clusters";

/** The current cluster lives in the URL (`?cluster=slug`) so that views can be linked and shared. */
export function ClusterSwitcher() {
  const t = useTranslations("topbar");
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const { data: clusters, isLoading } = useClusters();
  const current = searchParams.get("cluster") ?? "";
  return (
    <Select
      aria-label={t("cluster")}
      style={{ minWidth: 280 }}
      showSearch={{ optionFilterProp: "label" }}
      loading={isLoading}
      value={current}
      onChange={(slug: string) => {
        const params = new URLSearchParams(searchParams);
        if (slug) params.set("cluster", slug);
        else params.delete("cluster");
        const query = params.toString();
        router.push(query ? `${pathname}?${query}` : pathname);
      }}
      options={[
        { value: "", label: t("allClusters") },
        ...(clusters ?? []).map((cluster) => ({ value: cluster.slug, label: cluster.name })),
      ]}
    />
  );
}
