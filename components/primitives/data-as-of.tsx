"use client";

import { Typography } from "antd";
import { useTranslations } from "next-intl";
import { dataAsOfOf } from "@/lib/data-as-of";
import { DateTime } from "./date-time";

/**
 * "Data as of <time>" when an answer came from a read replica that is behind (lib/data-as-of.ts); nothing otherwise.
 * The data shown is then true as of that time, never a mix: the hint says how old it is.
 */
export function DataAsOf({ answer }: { answer: unknown }) {
  const t = useTranslations("app");
  const asOf = dataAsOfOf(answer);
  if (!asOf) return null;
  return (
    <Typography.Text type="warning" data-testid="data-as-of">
      {t.rich("dataAsOf", { time: () => <DateTime value={asOf} /> })}
    </Typography.Text>
  );
}
