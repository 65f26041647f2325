"use client";

import { Descriptions } from "antd";
import { Table } from "@/components/primitives/table";

/**
 * The antd components that the page's client-only sections mount after hydration (the server view's die table: its
 * Table and Spin; the details panel's fields: Descriptions), rendered hidden and empty so that the server renders their
 * styles into the page. antd generates a component's CSS on its first render unless the server's styles already hold
 * it (@ant-design/cssinjs reads their paths from the page); generated on the client, the Table's 52 KB of CSS was
 * most of the die table's first task after hydration (65 of 147 ms at load 17) and Descriptions' the details' (issue 21).
 */
export function SectionStyles() {
  return (
    <div hidden>
      <Table size="small" pagination={false} columns={[]} dataSource={[]} locale={{ emptyText: " " }} />
      <Descriptions size="small" items={[]} />
    </div>
  );
}
