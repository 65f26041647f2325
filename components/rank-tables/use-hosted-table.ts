"use client";

import { startTransition, useCallback, useEffect, useRef, useState } from "react";
import type { Issue, Lang } from "@/lib/rank-table";
import type { Edit } from "@/lib/rank-table-workspace/edit";
import { indexIssues, type DeviceRow, type IssueIndex } from "@/lib/rank-table-workspace/structure";
import type { TableSummary } from "@/lib/rank-table-workspace/table-host";
import type { ReportHead } from "./hosted-table";
import type { HostedChannel } from "./use-validation";

/** Rows fetched per request: a screenful is ~16, so one request covers scrolling a few screens. */
export const ROW_BLOCK = 128;

interface Block {
  revision: number;
  rows: DeviceRow[];
}

export interface HostedFindings {
  head: ReportHead | undefined;
  issues: Issue[];
  index: IssueIndex;
  /** True while a newer report is being computed or its pages are still arriving. */
  pending: boolean;
}

/**
 * The main thread's side of a table the worker keeps: its summary, its findings as they stream in, the rows in view
 * (fetched by range, cached per block and revision; a stale block stays on screen until the fresh one arrives), and
 * the edits, undo and redo, which the worker applies.
 */
export function useHostedTable(channel: HostedChannel, initial: TableSummary, notes: Issue[], lang: Lang) {
  const [summary, setSummary] = useState(initial);
  const [findings, setFindings] = useState<HostedFindings>(() => ({ head: undefined, issues: notes, index: indexIssues(notes), pending: true }));
  const collecting = useRef<{ seq: number; issues: Issue[]; head: ReportHead | undefined }>({ seq: 0, issues: [], head: undefined });
  const latestEdit = useRef(0);

  useEffect(() => {
    channel.onFindings((page) => {
      // Pages of an older report than one already started are dropped.
      const current = collecting.current;
      if (page.seq < current.seq) return;
      if (page.head) collecting.current = { seq: page.seq, issues: [], head: page.head };
      const into = collecting.current;
      into.issues = into.issues.concat(page.issues);
      const issues = into.issues;
      // Background renders (as the rows' below): the report and its marks do not hold up typing or scrolling.
      startTransition(() => setFindings((previous) => ({ head: into.head, issues, index: indexIssues(issues, previous.index), pending: !page.done || latestEdit.current > page.seq })));
    });
    return () => channel.onFindings(undefined);
  }, [channel]);

  const step = useCallback(
    async (request: { edit?: Edit; step?: "undo" | "redo" }) => {
      const answer = await channel.request({ type: "hostedEdit", lang, ...request });
      if (answer.type !== "edited" || !answer.changed) return;
      latestEdit.current = Math.max(latestEdit.current, answer.seq);
      setFindings((previous) => (previous.pending ? previous : { ...previous, pending: true }));
      setSummary((previous) => answer.summary ?? { ...previous, revision: answer.revision, canUndo: answer.canUndo, canRedo: answer.canRedo });
    },
    [channel, lang],
  );
  const edit = useCallback((change: Edit) => void step({ edit: change }), [step]);
  const undo = useCallback(() => void step({ step: "undo" }), [step]);
  const redo = useCallback(() => void step({ step: "redo" }), [step]);

  const locate = useCallback(async (node: string | undefined, path: string) => {
    const answer = await channel.request({ type: "locate", node, path });
    return answer.type === "located" ? answer : undefined;
  }, [channel]);

  /** The canonical text as the worker writes it by parts; `jsonString`: escaped as a JSON string's inside (a save body). */
  const exportBlob = useCallback(async (jsonString = false) => {
    const answer = await channel.request({ type: "writeBlob", jsonString });
    if (answer.type !== "blob") throw new Error(`unexpected answer ${answer.type}`);
    return answer.blob;
  }, [channel]);

  return { summary, findings, edit, undo, redo, locate, exportBlob };
}

/** Blocks of one node's rows, and the blocks being fetched (with the revision asked for). */
class RowCache {
  private node: string | undefined | null = null;
  blocks = new Map<number, Block>();
  inFlight = new Map<number, number>();
  total: number | undefined;

  /** This cache for a node: another node's rows are dropped. */
  of(node: string | undefined): this {
    if (this.node !== node) {
      this.node = node;
      this.blocks = new Map();
      this.inFlight = new Map();
      this.total = undefined;
    }
    return this;
  }
}

/**
 * The rows of a node's range in view, by block. `rowAt` gives what is cached (possibly of an older revision), and
 * `want` asks the worker for missing or stale blocks; `version` changes when an answer arrives.
 */
export function useRowBlocks(channel: HostedChannel, node: string | undefined, revision: number) {
  const [version, setVersion] = useState(0);
  const [cache] = useState(() => new RowCache());

  const request = useCallback(
    (block: number) => {
      const { blocks, inFlight } = cache.of(node);
      if (inFlight.get(block) === revision) return;
      inFlight.set(block, revision);
      void channel.request({ type: "rows", node, from: block * ROW_BLOCK, to: (block + 1) * ROW_BLOCK }).then((answer) => {
        // Answers for a node no longer shown are dropped (`of` made new maps for the new node).
        if (answer.type !== "rows" || cache.blocks !== blocks) return;
        if (inFlight.get(block) === revision) inFlight.delete(block);
        const held = blocks.get(block);
        if (held && held.revision > answer.revision) return;
        blocks.set(block, { revision: answer.revision, rows: answer.rows });
        cache.total = answer.total;
        // A background render: mounting a screenful of rows (their inputs and tooltips) took 250-800 ms in one task
        // after a scroll (bench: editor-browser); a transition lets React yield between rows.
        startTransition(() => setVersion((value) => value + 1));
      });
    },
    [channel, node, revision, cache],
  );

  /** Makes sure blocks covering rows `from`..`to` are (being) fetched for the current revision. */
  const want = useCallback(
    (from: number, to: number) => {
      const rows = cache.of(node);
      for (let block = Math.floor(from / ROW_BLOCK); block <= Math.floor(Math.max(from, to - 1) / ROW_BLOCK); block++) {
        if (rows.blocks.get(block)?.revision !== revision) request(block);
      }
    },
    [request, revision, cache, node],
  );

  const rowAt = useCallback((index: number): DeviceRow | undefined => cache.of(node).blocks.get(Math.floor(index / ROW_BLOCK))?.rows[index % ROW_BLOCK], [cache, node]);
  const total = useCallback(() => cache.of(node).total, [cache, node]);

  return { want, rowAt, total, version };
}
