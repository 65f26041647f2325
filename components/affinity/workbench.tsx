"use client";

import { UploadOutlined } from "@ant-design/icons";
import { useMutation } from "@tanstack/react-query";
import { Alert, Button, Card, Col, Flex, Input, InputNumber, Radio, Row, Tabs, Typography } from "antd";
import { useTranslations } from "next-intl";
import { usePathname, useSearchParams } from "next/navigation";
import { useState, type ChangeEvent } from "react";
import { PageHeading } from "@/components/primitives/page-heading";
import { parseCpuList } from "@/lib/affinity/cpu-list";
import { affinityQuery, affinitySearchParams, type AffinitySearchParams } from "@/lib/affinity/url";
import { checkValue, planValue, type CheckResponse, type LayoutTexts, type PlanResponse, type StoredLayout } from "./api";
import { CheckResult, PlanResult } from "./results";
import { ServerPicker } from "./server-picker";

/** A pasted output, or one read from a file the user picks. */
function OutputField({ label, placeholder, value, onChange, testId }: { label: string; placeholder: string; value: string; onChange: (text: string) => void; testId: string }) {
  const t = useTranslations("affinity");
  const load = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (file) onChange(await file.text());
    event.target.value = "";
  };
  return (
    <Flex vertical gap={4}>
      <Flex justify="space-between" align="center">
        <Typography.Text strong>{label}</Typography.Text>
        <label style={{ cursor: "pointer" }}>
          <input type="file" accept=".txt,.log,text/plain" onChange={load} style={{ display: "none" }} aria-label={`${t("upload")}: ${label}`} />
          <UploadOutlined /> {t("upload")}
        </label>
      </Flex>
      <Input.TextArea
        data-testid={testId}
        aria-label={label}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={placeholder}
        autoSize={{ minRows: 6, maxRows: 14 }}
        style={{ fontFamily: "monospace", fontSize: 12 }}
      />
    </Flex>
  );
}

export function AffinityWorkbench() {
  const t = useTranslations("affinity");
  const pathname = usePathname();
  const searchParams = useSearchParams();
  // The URL gives the first state; the page then owns it and mirrors every change into the URL (replaceState).
  const [state, setState] = useState(() => affinitySearchParams.parse(Object.fromEntries(searchParams)));
  const update = (patch: Partial<AffinitySearchParams>) => {
    const next = { ...state, ...patch };
    setState(next);
    const query = affinityQuery(next);
    window.history.replaceState(null, "", query ? `${pathname}?${query}` : pathname);
  };
  const [lscpu, setLscpu] = useState("");
  const [topo, setTopo] = useState("");
  const { tab, value, mode, reserve, processes } = state;
  const visibleDevices = state.visible ?? "";
  const jobNpus = state.jobNpus ?? "";
  const npus = state.npus ?? "";
  const textsOf = (l: string, tp: string): LayoutTexts => ({ lscpu: l, ...(tp.trim() ? { topo: tp } : {}) });
  const texts = textsOf(lscpu, topo);

  const check = useMutation<CheckResponse, Error, LayoutTexts>({
    mutationFn: (given) =>
      checkValue({ ...given, value: value ?? "", ...(visibleDevices.trim() ? { visibleDevices } : {}), ...(jobNpus.trim() ? { jobNpus: parseCpuList(jobNpus) ?? [] } : {}) }),
  });
  const plan = useMutation<PlanResponse, Error, LayoutTexts>({
    mutationFn: (given) => planValue({ ...given, npus: parseCpuList(npus) ?? [], mode, ...(processes ? { processes } : {}), ...(reserve ? { reserve } : {}) }),
  });
  const current = tab === "check" ? check : plan;
  const canCheck = (l: string) => l.trim() !== "" && (value ?? "").trim() !== "";
  const canPlan = (l: string) => l.trim() !== "" && npus.trim() !== "" && parseCpuList(npus) !== null;

  // A stored server's texts fill the fields; a link that names a value or NPUs shows its answer at once.
  const loaded = (stored: StoredLayout) => {
    const l = stored.lscpuText ?? "";
    const tp = stored.topoText ?? "";
    setLscpu(l);
    setTopo(tp);
    if (tab === "check" && canCheck(l)) check.mutate(textsOf(l, tp));
    if (tab === "plan" && canPlan(l)) plan.mutate(textsOf(l, tp));
  };

  return (
    <Flex vertical gap={16}>
      <PageHeading title={t("title")} subtitle={t("subtitle")} />
      <Card size="small" title={t("storedServer")}>
        <ServerPicker cluster={state.cluster} server={state.server} onPick={(cluster, server) => update({ cluster, server })} onLoaded={loaded} texts={texts} />
      </Card>
      <Row gutter={16}>
        <Col xs={24} lg={12}>
          <OutputField label={t("lscpu")} placeholder={t("lscpuPlaceholder")} value={lscpu} onChange={setLscpu} testId="affinity-lscpu" />
        </Col>
        <Col xs={24} lg={12}>
          <OutputField label={t("topo")} placeholder={t("topoPlaceholder")} value={topo} onChange={setTopo} testId="affinity-topo" />
        </Col>
      </Row>
      <Card size="small">
        <Tabs
          activeKey={tab}
          onChange={(key) => update({ tab: key as "check" | "plan" })}
          items={[
            {
              key: "check",
              label: t("checkTab"),
              children: (
                <Flex gap={8} wrap align="end">
                  <Flex vertical style={{ flex: "1 1 320px" }}>
                    <Typography.Text>{t("value")}</Typography.Text>
                    <Input data-testid="affinity-value" aria-label={t("value")} value={value ?? ""} onChange={(e) => update({ value: e.target.value })} placeholder={t("valuePlaceholder")} style={{ fontFamily: "monospace" }} />
                  </Flex>
                  <Flex vertical>
                    <Typography.Text>{t("visibleDevices")}</Typography.Text>
                    <Input aria-label={t("visibleDevices")} value={visibleDevices} onChange={(e) => update({ visible: e.target.value })} placeholder="0,1" />
                  </Flex>
                  <Flex vertical>
                    <Typography.Text>{t("jobNpus")}</Typography.Text>
                    <Input aria-label={t("jobNpus")} value={jobNpus} onChange={(e) => update({ jobNpus: e.target.value })} placeholder="0-7" />
                  </Flex>
                  <Button type="primary" onClick={() => check.mutate(texts)} loading={check.isPending} disabled={!canCheck(lscpu)}>
                    {t("check")}
                  </Button>
                </Flex>
              ),
            },
            {
              key: "plan",
              label: t("planTab"),
              children: (
                <Flex gap={8} wrap align="end">
                  <Flex vertical>
                    <Typography.Text>{t("npus")}</Typography.Text>
                    <Input data-testid="affinity-npus" aria-label={t("npus")} value={npus} onChange={(e) => update({ npus: e.target.value })} placeholder="0-7" />
                  </Flex>
                  <Flex vertical>
                    <Typography.Text>{t("processes")}</Typography.Text>
                    <InputNumber aria-label={t("processes")} min={1} max={64} value={processes ?? null} onChange={(n) => update({ processes: n ?? undefined })} />
                  </Flex>
                  <Flex vertical>
                    <Typography.Text>{t("reserve")}</Typography.Text>
                    <InputNumber data-testid="affinity-reserve" aria-label={t("reserve")} min={0} max={64} value={reserve} onChange={(n) => update({ reserve: n ?? 0 })} />
                  </Flex>
                  <Flex vertical>
                    <Typography.Text>{t("mode")}</Typography.Text>
                    <Radio.Group value={mode} onChange={(e) => update({ mode: e.target.value as 1 | 2 })} options={[{ value: 1, label: t("mode1") }, { value: 2, label: t("mode2") }]} />
                  </Flex>
                  <Button type="primary" onClick={() => plan.mutate(texts)} loading={plan.isPending} disabled={!canPlan(lscpu)}>
                    {t("plan")}
                  </Button>
                </Flex>
              ),
            },
          ]}
        />
      </Card>
      {current.error && <Alert type="error" showIcon title={t("failed", { message: current.error.message })} />}
      {!lscpu.trim() && <Typography.Text type="secondary">{t("empty")}</Typography.Text>}
      {tab === "check" && check.data && <CheckResult response={check.data} />}
      {tab === "plan" && plan.data && <PlanResult response={plan.data} />}
    </Flex>
  );
}
