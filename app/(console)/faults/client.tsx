"use client";

import { SettingOutlined } from "@ant-design/icons";
import { Button, Empty, Space, Tabs } from "antd";
import { Link } from "@/components/primitives/link";
import { useTranslations } from "next-intl";
import { CsvImport } from "@/components/faults/csv-import";
import { DeviceInfoPanel } from "@/components/faults/device-info-panel";
import { EscalationRules } from "@/components/faults/escalation-rules";
import { FaultLevelsTable } from "@/components/faults/fault-levels-table";
import { HcclPhasesTable } from "@/components/faults/hccl-phases-table";
import { useNow } from "@/components/faults/format";
import { useLiveFaults } from "@/components/faults/use-live-faults";
import { TrendsView } from "@/components/faults/report/trends-view";
import { FaultStatisticsView } from "@/components/faults/statistics";
import { TimelineView, type TimelineState } from "@/components/faults/timeline-view";
import { PageHeading } from "@/components/primitives/page-heading";
import { useUrlState } from "@/components/primitives/use-url-state";
import { useThemeControl } from "@/components/providers/app-providers";
import { faultsQuery, faultsSearchParams, liveWindowEnd, liveWindowStepMs, type FaultsSearchParams } from "@/lib/faults/url";

const day = 86_400_000;

export function FaultsClient({ defaultCluster, canWrite }: { defaultCluster: string | null; canWrite: boolean }) {
  const t = useTranslations("faults");
  const { theme } = useThemeControl();
  const [state, navigate] = useUrlState(faultsSearchParams, faultsQuery);
  const cluster = state.cluster ?? defaultCluster;
  const now = useNow(liveWindowStepMs);
  useLiveFaults(cluster);
  // Without from/to in the URL the window is the last 24 h and follows the clock.
  const to = state.to ?? liveWindowEnd(now);
  const from = state.from ?? to - day;

  const timelineState: TimelineState = {
    from,
    to,
    zoom: state.zf !== undefined && state.zt !== undefined ? [state.zf, state.zt] : null,
    brush: state.bf !== undefined && state.bt !== undefined ? [state.bf, state.bt] : null,
    kind: state.kind,
    level: state.level,
    code: state.code,
    target: state.target,
    state: state.state,
    open: state.open,
    sel: state.sel,
  };

  const onTimelineChange = (next: Partial<TimelineState>, mode: "push" | "replace" = "push") => {
    const { zoom, brush, from: nextFrom, to: nextTo, ...rest } = next;
    const patch: Partial<FaultsSearchParams> = { ...rest };
    if (nextFrom !== undefined) patch.from = nextFrom;
    if (nextTo !== undefined) patch.to = nextTo;
    if (zoom !== undefined) Object.assign(patch, zoom ? { zf: zoom[0], zt: zoom[1] } : { zf: undefined, zt: undefined });
    if (brush !== undefined) Object.assign(patch, brush ? { bf: brush[0], bt: brush[1] } : { bf: undefined, bt: undefined });
    navigate(patch, mode);
  };

  return (
    <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
      <PageHeading
        title={t("title")}
        subtitle={t("timelineSubtitle")}
        extra={
          cluster ? (
            <Link href={`/faults/settings?cluster=${cluster}`}>
              <Button icon={<SettingOutlined />}>{t("settings.open")}</Button>
            </Link>
          ) : null
        }
      />
      {!cluster ? (
        <Empty description={t("noClusters")} />
      ) : (
        <Tabs
          activeKey={state.tab}
          onChange={(tab) => navigate({ tab: tab as FaultsSearchParams["tab"] })}
          destroyOnHidden
          items={[
            { key: "timeline", label: t("tabs.timeline"), children: <TimelineView cluster={cluster} state={timelineState} now={now} theme={theme} onChange={onTimelineChange} /> },
            { key: "statistics", label: t("tabs.statistics"), children: <FaultStatisticsView cluster={cluster} from={from} to={to} /> },
            { key: "trends", label: t("tabs.trends"), children: <TrendsView cluster={cluster} from={from} to={to} onPeriod={(period) => navigate(period)} /> },
            { key: "device-info", label: t("tabs.deviceInfo"), children: <DeviceInfoPanel cluster={cluster} canWrite={canWrite} /> },
            { key: "import", label: t("tabs.import"), children: <CsvImport cluster={cluster} canWrite={canWrite} /> },
            {
              key: "reference",
              label: t("tabs.reference"),
              children: (
                <Space orientation="vertical" size="large" style={{ width: "100%" }}>
                  <EscalationRules cluster={cluster} />
                  <FaultLevelsTable />
                  <HcclPhasesTable />
                </Space>
              ),
            },
          ]}
        />
      )}
    </Space>
  );
}
