/**
 * The faults data layer. This file is its only door: code outside db/queries/faults/ imports from here, never from
 * the files beside it.
 *
 * - ingest.ts: a batch of events (prepare.ts → insert.ts → judgement.ts under series-locks.ts); device-info.ts: a
 *   device-info ConfigMap snapshot; seed.ts: the demo day; inbox.ts: batches posted with `Prefer: respond-async`,
 *   stored as they come and judged later in groups through ingest.ts.
 * - timeline.ts, statistics.ts, health.ts: what the pages read; rollups.ts keeps the hourly and daily rollups;
 *   on-dies.ts: the events of some dies and their links in a window (an error CQE's link-down history).
 * - report.ts (report-series.ts, report-jobs.ts): the managers' report over a period against the previous one.
 * - shared-answers.ts: the timeline, statistics and health answers shared between instances (a table with snapshots).
 * - settings.ts: per-cluster escalation rules and retention; retention.ts applies retention.
 * - target-index.ts: the inventory as ingestion resolves targets, cached per inventory revision.
 */
export { ingestDeviceInfo } from "./device-info";
export { faultHealthSnapshot } from "./health";
export { ingestFaultEvents } from "./ingest";
export { inboxBacklog, inboxChannel, judgeInbox, storeInboxBatch, type InboxBacklog, type JudgedGroup } from "./inbox";
export { dieFaultOf, faultsOnDies, type DieFault, type FaultEventRow } from "./on-dies";
export type { FaultNotice } from "./model";
export { getRetention, runRetention } from "./retention";
export { refreshFaultRollups, refreshFaultRollupsUnlessBusy } from "./rollups";
export { loadFaultReport } from "./report";
export { reportSeries } from "./report-series";
export { seedDemoFaults } from "./seed";
export { currentSnapshot, obtainFaultAnswer, type FoundFaultAnswer, type StoredFaultAnswer } from "./shared-answers";
export { getFaultSettings, putFaultSettings, type FaultSettings } from "./settings";
export { faultStatistics } from "./statistics";
export { listTimeline } from "./timeline";
