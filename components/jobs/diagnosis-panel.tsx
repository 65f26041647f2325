"use client";

import { InboxOutlined } from "@ant-design/icons";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Input, Progress, Select, Space, Typography, Upload, type UploadFile } from "antd";
import { useFormatter, useTranslations } from "next-intl";
import { useRef, useState } from "react";
import { useCan } from "@/components/auth/current-user";
import { faultKeys } from "@/components/faults/api";
import { diagnosisBodyLimit } from "@/db/schema/job/constants";
import { jobKeys, postDiagnosis, type JobDiagnosis } from "./api";
import { ReportView } from "./report-view";

interface Props {
  jobId: number;
  diagnoses: JobDiagnosis[];
  shown: JobDiagnosis | null;
  onShow: (id: number) => void;
}

/**
 * Drop a failed job's logs (files, .tar.gz archives, or pasted lines), see the report. Uploads show their progress
 * and can be cancelled; each run is stored as a diagnosis of the job, so more logs later mean another run.
 */
export function DiagnosisPanel({ jobId, diagnoses, shown, onShow }: Props) {
  const t = useTranslations("jobs");
  const format = useFormatter();
  const { message } = App.useApp();
  const canWrite = useCan("write");
  const queryClient = useQueryClient();
  const [files, setFiles] = useState<UploadFile[]>([]);
  const [text, setText] = useState("");
  const [progress, setProgress] = useState(0);
  const abort = useRef<AbortController | null>(null);
  const run = useMutation({
    mutationFn: () => {
      const form = new FormData();
      for (const file of files) if (file.originFileObj) form.append("files", file.originFileObj, file.originFileObj.webkitRelativePath || file.name);
      if (text.trim()) form.append("text", text);
      abort.current = new AbortController();
      setProgress(0);
      return postDiagnosis(jobId, form, setProgress, abort.current.signal);
    },
    onSuccess: async (diagnosis) => {
      setFiles([]);
      setText("");
      message.success(t("diagnose.done", { phase: t(`phases.${diagnosis.report.phase}`) }));
      onShow(diagnosis.id);
      await Promise.all([queryClient.invalidateQueries({ queryKey: jobKeys.detail(jobId) }), queryClient.invalidateQueries({ queryKey: faultKeys.all }), queryClient.invalidateQueries({ queryKey: jobKeys.all })]);
    },
  });
  const empty = files.length === 0 && !text.trim();
  return (
    <Space orientation="vertical" size={12} style={{ width: "100%" }}>
      {canWrite && (
        <>
          <div data-testid="log-drop">
            <Upload.Dragger
              multiple
              fileList={files}
              beforeUpload={() => false}
              onChange={({ fileList }) => setFiles(fileList)}
              disabled={run.isPending}
            >
              <p className="ant-upload-drag-icon">
                <InboxOutlined />
              </p>
              <p className="ant-upload-text">{t("diagnose.drop")}</p>
              <p className="ant-upload-hint">{t("diagnose.dropHint", { limit: `${format.number(diagnosisBodyLimit / 1024 / 1024)} MiB` })}</p>
            </Upload.Dragger>
          </div>
          <Input.TextArea
            aria-label={t("diagnose.paste")}
            placeholder={`${t("diagnose.paste")}  ${t("diagnose.pastePlaceholder")}`}
            autoSize={{ minRows: 2, maxRows: 8 }}
            value={text}
            onChange={(e) => setText(e.target.value)}
            disabled={run.isPending}
          />
          <Space wrap>
            <Button type="primary" onClick={() => run.mutate()} loading={run.isPending} disabled={empty}>
              {run.isPending ? t("diagnose.running") : diagnoses.length ? t("diagnose.rerun") : t("diagnose.run")}
            </Button>
            {run.isPending && (
              <>
                <Progress percent={Math.round(progress * 100)} size="small" style={{ width: 160 }} aria-label={t("diagnose.uploading", { percent: Math.round(progress * 100) })} />
                <Button onClick={() => abort.current?.abort()}>{t("diagnose.cancel")}</Button>
              </>
            )}
          </Space>
          {run.error && !(run.error instanceof DOMException) && <Alert type="error" showIcon title={t("diagnose.failed", { message: run.error.message })} />}
        </>
      )}
      {diagnoses.length > 1 && shown && (
        <Space>
          <Typography.Text>{t("diagnose.history")}</Typography.Text>
          <Select
            value={shown.id}
            onChange={onShow}
            style={{ minWidth: 360 }}
            options={diagnoses.map((d) => ({
              value: d.id,
              label: t("diagnose.by", { when: format.dateTime(new Date(d.createdAt), { dateStyle: "medium", timeStyle: "short" }), who: d.authorName ?? "—", files: d.files, bytes: `${format.number(d.bytes / 1024, { maximumFractionDigits: 0 })} KiB` }),
            }))}
          />
        </Space>
      )}
      {shown ? <ReportView report={shown.report} /> : <Typography.Text type="secondary">{t("diagnose.none")}</Typography.Text>}
    </Space>
  );
}
