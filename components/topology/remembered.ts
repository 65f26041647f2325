import type { TopologyNode } from "@/lib/topology/model";

/** Texts kept per value; past this many (a job's ranks seen while browsing) they are formatted afresh. */
export const REMEMBERED = 10_000;

/**
 * `format` answering the same text for the same value without formatting it again: the graph labels every cell on
 * screen again at each zoom step and each progressive chunk, and a message with values is formatted anew on every call
 * (intl-messageformat's parts and its number formats' memo keys): 50–60 ms of main thread over one wheel zoom of an
 * Atlas 950 server's 2 hops (issue 21).
 */
export function remembered<Value extends string | number>(format: (value: Value) => string): (value: Value) => string {
  const texts = new Map<Value, string>();
  return (value) => {
    let text = texts.get(value);
    if (text === undefined) {
      if (texts.size >= REMEMBERED) texts.clear();
      texts.set(value, (text = format(value)));
    }
    return text;
  };
}

/** `remembered` for a text of a node: kept as long as the node is (a view's nodes go with the view). */
export function rememberedPerNode(format: (node: TopologyNode) => string): (node: TopologyNode) => string {
  const texts = new WeakMap<TopologyNode, string>();
  return (node) => {
    let text = texts.get(node);
    if (text === undefined) texts.set(node, (text = format(node)));
    return text;
  };
}
