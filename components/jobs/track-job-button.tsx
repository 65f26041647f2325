"use client";

import { ScheduleOutlined } from "@ant-design/icons";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Form, Input, Modal, Select } from "antd";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useClusters } from "@/components/clusters/use-clusters";
import { portKeys } from "@/components/ports/api";
import type { RankTableDetail } from "@/db/schema/rank-table/validation";
import { jobStates, type JobState } from "@/lib/jobs/model";
import { toJobName } from "@/lib/rank-table-workspace/configmap";
import { createJob, jobKeys } from "./api";

interface Values {
  cluster: number;
  name: string;
  namespace: string;
  state: JobState;
}

/** "Track as a job": a job from the saved table's current revision, placed on a cluster, then its page. */
export function TrackJobButton({ table }: { table: RankTableDetail }) {
  const t = useTranslations("jobs.track");
  const tStates = useTranslations("jobs.states");
  const { message } = App.useApp();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<Values>();
  const clusters = useClusters({ enabled: open });
  const create = useMutation({
    mutationFn: (values: Values) => createJob({ cluster: values.cluster, name: values.name, namespace: values.namespace, state: values.state, rankTableId: table.id, rankTableRevision: table.revision }),
    onSuccess: async ({ ports, ...job }) => {
      message.success(t("created"));
      await queryClient.invalidateQueries({ queryKey: jobKeys.all });
      // The answer's port check in counts is the first data of the job page's Ports section: not fetched again there.
      queryClient.setQueryData(portKeys.job(job.cluster.slug, job.id), ports);
      router.push(`/jobs/${job.id}`);
    },
  });
  return (
    <>
      <Button icon={<ScheduleOutlined />} onClick={() => setOpen(true)}>
        {t("button")}
      </Button>
      <Modal
        open={open}
        title={t("title", { name: table.name })}
        okText={t("submit")}
        confirmLoading={create.isPending}
        onCancel={() => setOpen(false)}
        onOk={() => void form.validateFields().then((values) => create.mutate(values))}
        destroyOnHidden
      >
        <Form<Values> form={form} layout="vertical" initialValues={{ cluster: table.clusterId ?? undefined, name: toJobName(table.name), namespace: "default", state: "running" }}>
          <Form.Item name="cluster" label={t("cluster")} rules={[{ required: true, message: t("needCluster") }]}>
            <Select loading={clusters.isLoading} options={(clusters.data ?? []).map((c) => ({ value: c.id, label: c.name }))} />
          </Form.Item>
          <Form.Item name="name" label={t("name")} rules={[{ required: true, max: 253 }]}>
            <Input />
          </Form.Item>
          <Form.Item name="namespace" label={t("namespace")} rules={[{ required: true, max: 63 }]}>
            <Input />
          </Form.Item>
          <Form.Item name="state" label={t("state")}>
            <Select options={jobStates.map((s) => ({ value: s, label: tStates(s) }))} />
          </Form.Item>
        </Form>
        {create.error && <Alert type="error" showIcon title={create.error.message} />}
      </Modal>
    </>
  );
}
