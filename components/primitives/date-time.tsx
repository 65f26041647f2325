"use client";

import { useLocale } from "next-intl";

/** A time in the browser's time zone, with UTC on hover. */
export function DateTime({ value, fallback = "—" }: { value: string | null | undefined; fallback?: string }) {
  const locale = useLocale();
  if (!value) return <span>{fallback}</span>;
  const date = new Date(value);
  const local = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "medium" }).format(date);
  return (
    <time dateTime={value} title={`${date.toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC")}`} suppressHydrationWarning>
      {local}
    </time>
  );
}
