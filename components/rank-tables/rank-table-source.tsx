"use client";

import { InboxOutlined } from "@ant-design/icons";
import { App, Input, Upload } from "antd";
import { useTranslations } from "next-intl";

/** A rank table's text: pasted, typed, or read from a dropped or picked file. */
export function RankTableSource({
  text,
  fileName,
  onChange,
}: {
  text: string;
  fileName: string | undefined;
  onChange: (text: string, fileName: string | undefined) => void;
}) {
  const t = useTranslations("rankTables");
  const { message } = App.useApp();
  return (
    <div style={{ display: "grid", gridTemplateColumns: "minmax(0, 2fr) minmax(220px, 1fr)", gap: 16 }}>
      <Input.TextArea
        aria-label={t("textLabel")}
        placeholder={t("textPlaceholder")}
        value={text}
        onChange={(event) => onChange(event.target.value, undefined)}
        autoSize={{ minRows: 10, maxRows: 24 }}
        spellCheck={false}
        style={{ fontFamily: "var(--font-mono)", fontSize: 12 }}
      />
      <Upload.Dragger
        accept=".json,.jsonc,application/json,text/plain"
        multiple={false}
        showUploadList={false}
        beforeUpload={(file) => {
          file
            .text()
            .then((content) => onChange(content, file.name))
            .catch(() => message.error(t("readFailed", { name: file.name })));
          return false;
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p>{t("dropHint")}</p>
        {fileName && <p style={{ fontFamily: "var(--font-mono)" }}>{fileName}</p>}
      </Upload.Dragger>
    </div>
  );
}
