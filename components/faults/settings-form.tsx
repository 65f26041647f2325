"use client";

import { MinusCircleOutlined, PlusOutlined } from "@ant-design/icons";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card, Form, InputNumber, Radio, Select, Space, Spin, Tag, Typography } from "antd";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { DateTime } from "@/components/primitives/date-time";
import { ApiRequestError } from "@/components/primitives/fetch-json";
import { faultSettingsInputSchema, type FaultSettingsInput } from "@/db/schema/fault-event/validation";
import { zodIssueProblem } from "@/lib/faults/errors";
import { defaultEscalationSettings, settingRanges, type EscalationSettings } from "@/lib/faults/escalation";
import { retentionModes } from "@/lib/faults/retention";
import { faultLevels } from "@/lib/faults/levels";
import { faultKinds } from "@/lib/faults/model";
import { faultKeys, fetchFaultSettings, saveFaultSettings, type FaultSettings } from "./api";
import { useProblemText } from "./problem-text";

type FormValues = EscalationSettings & Pick<FaultSettings, "retentionDays" | "retentionMode">;

const toForm = (settings: FaultSettings): FormValues => ({ ...settings.escalation, retentionDays: settings.retentionDays, retentionMode: settings.retentionMode });
const toInput = ({ retentionDays, retentionMode, duration, frequency }: FormValues): unknown => ({ escalation: { duration, frequency }, retentionDays, retentionMode });
/** A schema issue's path (`escalation.duration.0.faultTimeoutSeconds`) as the form names the field. */
const fieldName = (path: PropertyKey[]): (string | number)[] => path.filter((part) => part !== "escalation").map((part) => (typeof part === "number" ? part : String(part)));

const durationHandlings = faultLevels.filter((level) => level !== "ManuallySeparateNPU");

/**
 * Edits a cluster's escalation settings (MindCluster's FaultDuration / FaultFrequency rules) and retention. The
 * values are checked with the API's own schema before saving, and the messages come in the reader's language. A
 * save names the version it started from: when someone else saved in between, nothing is overwritten and the
 * editor chooses to load their values or to save over them knowingly. Viewers see the values read-only.
 */
export function FaultSettingsForm({ cluster, canEdit }: { cluster: string; canEdit: boolean }) {
  const t = useTranslations("faults.settings");
  const query = useQuery({ queryKey: faultKeys.settings(cluster), queryFn: ({ signal }) => fetchFaultSettings(cluster, signal) });
  if (query.isError) return <Alert type="error" showIcon title={t("loadFailed")} description={query.error.message} />;
  if (!query.data) return <Spin />;
  return <SettingsEditor cluster={cluster} canEdit={canEdit} loaded={query.data} />;
}

function SettingsEditor({ cluster, canEdit, loaded }: { cluster: string; canEdit: boolean; loaded: FaultSettings }) {
  const t = useTranslations("faults.settings");
  const tKind = useTranslations("faults.kinds");
  const problemText = useProblemText();
  const client = useQueryClient();
  // Untyped: its fields are also addressed by the schema's issue paths (duration.0.faultTimeoutSeconds).
  const [form] = Form.useForm();
  /** The saved settings the edit started from (its version goes into If-Match); later loads do not overwrite edits. */
  const [base, setBase] = useState<FaultSettings>(loaded);
  const [conflict, setConflict] = useState<FaultSettings | null>(null);
  const [savedAt, setSavedAt] = useState<number | null>(null);

  const clearErrors = () => form.setFields(form.getFieldsError().map(({ name }) => ({ name, errors: [] })));
  const startFrom = (settings: FaultSettings) => {
    setBase(settings);
    setConflict(null);
    form.setFieldsValue(toForm(settings));
    clearErrors();
  };

  const save = useMutation<FaultSettings, Error, { version: string; input: FaultSettingsInput }>({
    mutationFn: ({ version, input }) => saveFaultSettings(cluster, version, input),
    onSuccess: (settings) => {
      client.setQueryData(faultKeys.settings(cluster), settings);
      startFrom(settings);
      setSavedAt(Date.now());
      void client.invalidateQueries({ queryKey: faultKeys.all });
    },
    onError: (error) => {
      const current = error instanceof ApiRequestError && error.code === "settings_conflict" ? (error.details as { current?: FaultSettings } | undefined)?.current : undefined;
      if (current) setConflict(current);
    },
  });

  const labels: Record<string, string> = {
    codes: t("codes"),
    kinds: t("kinds"),
    faultTimeoutSeconds: t("faultTimeout"),
    recoverTimeoutSeconds: t("recoverTimeout"),
    handling: t("handling"),
    times: t("times"),
    windowSeconds: t("window"),
    releaseSeconds: t("release"),
    retentionDays: t("retentionDays"),
    retentionMode: t("retentionMode"),
  };
  const submit = (values: FormValues) => {
    clearErrors();
    setSavedAt(null);
    const parsed = faultSettingsInputSchema.safeParse(toInput(values));
    if (!parsed.success) {
      form.setFields(
        parsed.error.issues.map((issue) => {
          const problem = zodIssueProblem(issue, "invalid_settings");
          const field = String(issue.path.at(-1) ?? "");
          return { name: fieldName(issue.path), errors: [problemText({ ...problem, params: { ...problem.params, path: labels[field] ?? field } })] };
        }),
      );
      return;
    }
    save.mutate({ version: base.version, input: parsed.data });
  };

  const kindOptions = faultKinds.map((kind) => ({ value: kind, label: tKind(kind) }));
  const codesField = (name: number) => (
    <Form.Item name={[name, "codes"]} label={labels.codes} style={{ minWidth: 220 }}>
      <Select mode="tags" tokenSeparators={[",", " "]} placeholder="81078603" aria-label={labels.codes} />
    </Form.Item>
  );
  const kindsField = (name: number) => (
    <Form.Item name={[name, "kinds"]} label={labels.kinds} style={{ minWidth: 260 }}>
      <Select mode="multiple" options={kindOptions} aria-label={labels.kinds} />
    </Form.Item>
  );

  return (
    <Form<FormValues> form={form} initialValues={toForm(loaded)} layout="vertical" disabled={!canEdit || save.isPending} onFinish={submit} aria-label={t("formLabel")}>
      <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
        <Space wrap>
          <Tag color={base.customised ? "blue" : "default"}>{base.customised ? t("customised") : t("defaults")}</Tag>
          {base.updatedAt !== null ? (
            <Typography.Text type="secondary">
              {t("lastChanged")} <DateTime value={new Date(base.updatedAt).toISOString()} />
            </Typography.Text>
          ) : null}
        </Space>
        {!canEdit ? <Alert type="info" showIcon title={t("readOnly")} /> : null}
        {conflict ? (
          <Alert
            type="warning"
            showIcon
            title={t("conflictTitle")}
            description={t("conflictBody")}
            action={
              <Space orientation="vertical">
                <Button size="small" onClick={() => startFrom(conflict)}>
                  {t("loadTheirs")}
                </Button>
                <Button
                  size="small"
                  danger
                  onClick={() => {
                    setBase(conflict);
                    setConflict(null);
                  }}
                >
                  {t("keepMine")}
                </Button>
              </Space>
            }
          />
        ) : null}
        {save.isError && !conflict ? <Alert type="error" showIcon title={t("saveFailed")} description={save.error.message} /> : null}
        {savedAt !== null ? <Alert type="success" showIcon title={t("saved")} /> : null}

        <Card title={t("durationTitle")} size="small">
          <Typography.Paragraph type="secondary">{t("durationIntro")}</Typography.Paragraph>
          <Form.List name="duration">
            {(fields, { add, remove }) => (
              <Space orientation="vertical" style={{ width: "100%" }}>
                {fields.map(({ key, name }) => (
                  <div key={key} role="group" aria-label={t("durationRule", { index: name + 1 })}>
                    <Space wrap align="start">
                      {codesField(name)}
                      {kindsField(name)}
                      <SecondsField list="duration" name={name} field="faultTimeoutSeconds" label={labels.faultTimeoutSeconds!} />
                      <SecondsField list="duration" name={name} field="recoverTimeoutSeconds" label={labels.recoverTimeoutSeconds!} />
                      <Form.Item name={[name, "handling"]} label={labels.handling}>
                        <Select style={{ width: 190 }} options={durationHandlings.map((level) => ({ value: level, label: level }))} aria-label={labels.handling} />
                      </Form.Item>
                      {canEdit ? <Button type="text" icon={<MinusCircleOutlined />} aria-label={t("removeRule")} onClick={() => remove(name)} style={{ marginTop: 30 }} /> : null}
                    </Space>
                  </div>
                ))}
                {canEdit ? (
                  <Button icon={<PlusOutlined />} onClick={() => add(defaultEscalationSettings.duration[0])}>
                    {t("addDuration")}
                  </Button>
                ) : null}
              </Space>
            )}
          </Form.List>
        </Card>

        <Card title={t("frequencyTitle")} size="small">
          <Typography.Paragraph type="secondary">{t("frequencyIntro")}</Typography.Paragraph>
          <Form.List name="frequency">
            {(fields, { add, remove }) => (
              <Space orientation="vertical" style={{ width: "100%" }}>
                {fields.map(({ key, name }) => (
                  <div key={key} role="group" aria-label={t("frequencyRule", { index: name + 1 })}>
                    <Space wrap align="start">
                      {codesField(name)}
                      {kindsField(name)}
                      <Form.Item name={[name, "times"]} label={labels.times}>
                        <InputNumber<number> style={{ width: 110 }} aria-label={labels.times} />
                      </Form.Item>
                      <SecondsField list="frequency" name={name} field="windowSeconds" label={labels.windowSeconds!} />
                      <Form.Item name={[name, "handling"]} label={labels.handling}>
                        <Select style={{ width: 190 }} options={faultLevels.map((level) => ({ value: level, label: level }))} aria-label={labels.handling} />
                      </Form.Item>
                      <SecondsField list="frequency" name={name} field="releaseSeconds" label={labels.releaseSeconds!} />
                      {canEdit ? <Button type="text" icon={<MinusCircleOutlined />} aria-label={t("removeRule")} onClick={() => remove(name)} style={{ marginTop: 30 }} /> : null}
                    </Space>
                  </div>
                ))}
                {canEdit ? (
                  <Button icon={<PlusOutlined />} onClick={() => add(defaultEscalationSettings.frequency[0])}>
                    {t("addFrequency")}
                  </Button>
                ) : null}
              </Space>
            )}
          </Form.List>
        </Card>

        <Card title={t("retentionTitle")} size="small">
          <Form.Item name="retentionDays" label={labels.retentionDays} extra={t("retentionHelp")}>
            <InputNumber<number> suffix={t("daysUnit")} style={{ width: 160 }} aria-label={labels.retentionDays} />
          </Form.Item>
          <Form.Item name="retentionMode" label={labels.retentionMode} extra={t("retentionModeHelp")}>
            <Radio.Group
              aria-label={labels.retentionMode}
              options={retentionModes.map((mode) => ({ value: mode, label: t(`retentionModes.${mode}`) }))}
            />
          </Form.Item>
        </Card>

        {canEdit ? (
          <Space>
            <Button type="primary" htmlType="submit" loading={save.isPending}>
              {t("save")}
            </Button>
            <Button htmlType="button" onClick={() => startFrom(base)}>
              {t("reset")}
            </Button>
          </Space>
        ) : null}
      </Space>
    </Form>
  );
}

const roundTo2 = (value: number) => Math.round(value * 100) / 100;

/** A rule's duration in seconds, with its length in minutes or hours under it (86,400 s reads as 24 h). */
function SecondsField({ list, name, field, label }: { list: "duration" | "frequency"; name: number; field: keyof typeof settingRanges; label: string }) {
  const tUnit = useTranslations("faults.units");
  const value: unknown = Form.useWatch([list, name, field]);
  const length = typeof value === "number" && value >= 60 ? (value >= 3600 ? tUnit("h", { value: roundTo2(value / 3600) }) : tUnit("min", { value: roundTo2(value / 60) })) : null;
  return (
    <Form.Item name={[name, field]} label={label} extra={length}>
      <InputNumber<number> suffix="s" style={{ width: 150 }} aria-label={label} />
    </Form.Item>
  );
}
