"use client";

import { useQuery } from "@tanstack/react-query";
import { Typography } from "antd";
import { useTranslations } from "next-intl";
import { faultKeys, fetchInboxBacklog } from "./api";

/** How often the page asks: the judge takes a group in seconds, so a backlog shown is at most this much out of date. */
const pollMs = 5_000;

/**
 * "N events received, not judged yet": events that device plugins posted with `Prefer: respond-async` wait in the
 * inbox until the judge takes them (db/queries/faults/inbox.ts), and the timeline does not show them until then.
 * Under a flood that wait is seconds to tens of seconds (README, the load bench), so the page says so rather than
 * looking complete. Nothing is shown when the inbox is empty, or when the backlog cannot be read.
 */
export function InboxBacklog() {
  const t = useTranslations("faults.timeline");
  const { data } = useQuery({ queryKey: faultKeys.inbox, queryFn: ({ signal }) => fetchInboxBacklog(signal), refetchInterval: pollMs });
  if (!data || data.events === 0) return null;
  return (
    <Typography.Text type="warning" data-testid="inbox-backlog">
      {t("inboxBacklog", { events: data.events, seconds: Math.round((data.oldestAgeMs ?? 0) / 1000) })}
    </Typography.Text>
  );
}
