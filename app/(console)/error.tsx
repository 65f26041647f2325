"use client";

import { Button, Result, Space } from "antd";
import { useTranslations } from "next-intl";
import { useEffect } from "react";

/**
 * What a console page shows when it fails while rendering in the browser, inside the console's shell: the error's
 * message, a retry of the page, and a reload. The reload is what mends a module that failed to download (a chunk of
 * an older build, after an upgrade): a failed lazy module stays failed until the page is loaded again.
 */
export default function ConsoleError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const t = useTranslations("errors");
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <Result
      status="error"
      title={t("somethingFailed")}
      subTitle={error.digest ? t("serverFailed", { digest: error.digest }) : error.message}
      extra={
        <Space>
          <Button type="primary" onClick={reset}>
            {t("tryAgain")}
          </Button>
          <Button onClick={() => window.location.reload()}>{t("reloadNow")}</Button>
        </Space>
      }
    />
  );
}
