"use client";

import { Segmented } from "antd";
import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { useTransition } from "react";
import { localeCookie, type Locale } from "@/i18n/locales";
import { rememberPreference } from "@/components/providers/preferences";

export function LanguageSwitcher() {
  const t = useTranslations("topbar");
  const locale = useLocale() as Locale;
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  return (
    <Segmented<Locale>
      aria-label={t("language")}
      value={locale}
      disabled={pending}
      onChange={(next) => {
        rememberPreference(localeCookie, next);
        startTransition(() => router.refresh());
      }}
      options={[
        { value: "zh-CN", label: <span lang="zh-CN">中文</span> },
        { value: "en", label: <span lang="en">English</span> },
      ]}
    />
  );
}
