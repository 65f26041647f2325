"use client";

import { UploadOutlined } from "@ant-design/icons";
import { useMutation } from "@tanstack/react-query";
import { Alert, Button, Card, Col, Flex, Input, InputNumber, Radio, Row, Tabs, Typography } from "antd";
import { useTranslations } from "next-intl";
import { useState, type ChangeEvent } from "react";
import { PageHeading } from "@/components/primitives/page-heading";
import { parseCpuList } from "@/lib/affinity/cpu-list";
import { checkValue, planValue, type CheckResponse, type PlanResponse } from "./api";
import { CheckResult, PlanResult } from "./results";

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
  const [lscpu, setLscpu] = useState("");
  const [topo, setTopo] = useState("");
  const [value, setValue] = useState("");
  const [visibleDevices, setVisibleDevices] = useState("");
  const [jobNpus, setJobNpus] = useState("");
  const [npus, setNpus] = useState("");
  const [processes, setProcesses] = useState<number | null>(null);
  const [reserve, setReserve] = useState<number | null>(0);
  const [mode, setMode] = useState<1 | 2>(1);
  const [tab, setTab] = useState<"check" | "plan">("check");
  const texts = { lscpu, ...(topo.trim() ? { topo } : {}) };

  const check = useMutation<CheckResponse, Error>({
    mutationFn: () =>
      checkValue({ ...texts, value, ...(visibleDevices.trim() ? { visibleDevices } : {}), ...(jobNpus.trim() ? { jobNpus: parseCpuList(jobNpus) ?? [] } : {}) }),
  });
  const plan = useMutation<PlanResponse, Error>({
    mutationFn: () => planValue({ ...texts, npus: parseCpuList(npus) ?? [], mode, ...(processes ? { processes } : {}), ...(reserve ? { reserve } : {}) }),
  });
  const current = tab === "check" ? check : plan;

  return (
    <Flex vertical gap={16}>
      <PageHeading title={t("title")} subtitle={t("subtitle")} />
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
          onChange={(key) => setTab(key as "check" | "plan")}
          items={[
            {
              key: "check",
              label: t("checkTab"),
              children: (
                <Flex gap={8} wrap align="end">
                  <Flex vertical style={{ flex: "1 1 320px" }}>
                    <Typography.Text>{t("value")}</Typography.Text>
                    <Input data-testid="affinity-value" aria-label={t("value")} value={value} onChange={(e) => setValue(e.target.value)} placeholder={t("valuePlaceholder")} style={{ fontFamily: "monospace" }} />
                  </Flex>
                  <Flex vertical>
                    <Typography.Text>{t("visibleDevices")}</Typography.Text>
                    <Input aria-label={t("visibleDevices")} value={visibleDevices} onChange={(e) => setVisibleDevices(e.target.value)} placeholder="0,1" />
                  </Flex>
                  <Flex vertical>
                    <Typography.Text>{t("jobNpus")}</Typography.Text>
                    <Input aria-label={t("jobNpus")} value={jobNpus} onChange={(e) => setJobNpus(e.target.value)} placeholder="0-7" />
                  </Flex>
                  <Button type="primary" onClick={() => check.mutate()} loading={check.isPending} disabled={!lscpu.trim() || !value.trim()}>
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
                    <Input data-testid="affinity-npus" aria-label={t("npus")} value={npus} onChange={(e) => setNpus(e.target.value)} placeholder="0-7" />
                  </Flex>
                  <Flex vertical>
                    <Typography.Text>{t("processes")}</Typography.Text>
                    <InputNumber aria-label={t("processes")} min={1} max={64} value={processes} onChange={setProcesses} />
                  </Flex>
                  <Flex vertical>
                    <Typography.Text>{t("reserve")}</Typography.Text>
                    <InputNumber data-testid="affinity-reserve" aria-label={t("reserve")} min={0} max={64} value={reserve} onChange={setReserve} />
                  </Flex>
                  <Flex vertical>
                    <Typography.Text>{t("mode")}</Typography.Text>
                    <Radio.Group value={mode} onChange={(e) => setMode(e.target.value as 1 | 2)} options={[{ value: 1, label: t("mode1") }, { value: 2, label: t("mode2") }]} />
                  </Flex>
                  <Button type="primary" onClick={() => plan.mutate()} loading={plan.isPending} disabled={!lscpu.trim() || parseCpuList(npus) === null || !npus.trim()}>
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
