"use client";

import { LockOutlined, UserOutlined } from "@ant-design/icons";
import { Alert, Button, Card, Form, Input, Typography } from "antd";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { LanguageSwitcher } from "@/components/shell/language-switcher";

interface Values {
  username: string;
  password: string;
}

export function SignInClient({ next }: { next: string }) {
  const t = useTranslations("auth");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(values: Values) {
    setBusy(true);
    setError(null);
    try {
      const response = await fetch("/api/auth/sign-in", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify(values),
      });
      if (response.ok) {
        // A full navigation, so the console renders with the new session from the start.
        window.location.assign(next);
        return;
      }
      const body = (await response.json().catch(() => undefined)) as
        | { error?: { code?: string; message?: string; details?: { retryAfterSeconds?: number } } }
        | undefined;
      const seconds = body?.error?.details?.retryAfterSeconds ?? Number(response.headers.get("retry-after") ?? 0);
      if (response.status === 429) setError(t("locked", { seconds }));
      else if (response.status === 401) setError(t("invalid"));
      else setError(t("failed", { message: body?.error?.message ?? `HTTP ${response.status}` }));
    } catch (failure) {
      setError(t("failed", { message: (failure as Error).message }));
    }
    setBusy(false);
  }

  return (
    <main style={{ minHeight: "100vh", display: "grid", placeItems: "center", padding: 16 }}>
      <Card style={{ width: "100%", maxWidth: 380 }}>
        <Typography.Title level={1} style={{ fontSize: 22, marginTop: 0 }}>
          {t("title")}
        </Typography.Title>
        <Typography.Paragraph type="secondary">{t("subtitle")}</Typography.Paragraph>
        {error && <Alert type="error" showIcon title={error} role="alert" style={{ marginBottom: 16 }} />}
        <Form<Values> layout="vertical" onFinish={submit} requiredMark={false} disabled={busy}>
          <Form.Item label={t("username")} name="username" rules={[{ required: true, message: t("usernameRequired") }]}>
            <Input prefix={<UserOutlined />} autoComplete="username" autoFocus autoCapitalize="none" spellCheck={false} />
          </Form.Item>
          <Form.Item label={t("password")} name="password" rules={[{ required: true, message: t("passwordRequired") }]}>
            <Input.Password prefix={<LockOutlined />} autoComplete="current-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy}>
            {t("submit")}
          </Button>
        </Form>
        <Typography.Paragraph type="secondary" style={{ marginTop: 16, marginBottom: 8 }}>
          {t("help")}
        </Typography.Paragraph>
        <LanguageSwitcher />
      </Card>
    </main>
  );
}
