/** Where JSON Pointers sit in a text: one scan for any number of pointers, descending only where one is wanted. */
import { COMMA, LBRACE, LBRACKET, RBRACE, RBRACKET, Scanner, SyntaxFailure } from "./json-scanner";
import { splitPointer } from "./pointer";

interface PointerNode {
  /** Offset of the member (its key) or array element; -1 until the scan reaches it. */
  offset: number;
  children: Map<string, PointerNode> | undefined;
}

/**
 * Finds where each JSON Pointer points in `text` (which must be parseable): the offset of the object member's
 * key, or of the array element. A pointer that does not resolve maps to its deepest existing ancestor.
 * One pass over the text for any number of pointers; the cost is linear in text length plus pointer count.
 */
export function locatePointers(text: string, pointers: Iterable<string>): Map<string, number> {
  const root: PointerNode = { offset: -1, children: undefined };
  const wanted: string[] = [];
  for (const pointer of pointers) {
    wanted.push(pointer);
    let node = root;
    for (const segment of splitPointer(pointer)) {
      node.children ??= new Map();
      let child = node.children.get(segment);
      if (child === undefined) {
        child = { offset: -1, children: undefined };
        node.children.set(segment, child);
      }
      node = child;
    }
  }
  const scanner = new Scanner(text);
  const search: PointerSearch = { left: countNodes(root), keys: [...new Set(wanted.flatMap(splitPointer))].map((segment) => JSON.stringify(segment)) };
  try {
    scanner.skipTrivia();
    visitPointerNode(scanner, root, scanner.pos, search);
  } catch (error) {
    // Unparseable text: keep whatever was found before the problem.
    if (!(error instanceof SyntaxFailure)) throw error;
  }
  const offsets = new Map<string, number>();
  for (const pointer of wanted) {
    let node: PointerNode | undefined = root;
    let offset = root.offset;
    for (const segment of splitPointer(pointer)) {
      node = node.children?.get(segment);
      if (node === undefined || node.offset < 0) break;
      offset = node.offset;
    }
    offsets.set(pointer, Math.max(offset, 0));
  }
  return offsets;
}

interface PointerSearch {
  /** Nodes not reached yet. */
  left: number;
  /** Every pointer segment as a JSON string, the spelling a later duplicate key would have. */
  keys: string[];
}

const countNodes = (node: PointerNode): number => {
  let count = 1;
  for (const child of node.children?.values() ?? []) count += countNodes(child);
  return count;
};

/**
 * True when the scan may stop at `from`: every node is reached and no later duplicate key can move one (JSON.parse
 * keeps the last). A later key is looked for as text, conservatively: any occurrence of a segment's spelling, or
 * any backslash (a key spelled with escapes), keeps the scan going. So a finding at /rank_count costs a search of
 * the text, not a walk through the 200 MB rank_list after it.
 */
function scanComplete(text: string, search: PointerSearch, from: number): boolean {
  return search.left === 0 && text.indexOf("\\", from) < 0 && search.keys.every((key) => text.indexOf(key, from) < 0);
}

/**
 * Called with the scanner at the start of a value; records the node and descends only into wanted children.
 * Returns true when the whole scan can stop (scanComplete).
 */
function visitPointerNode(scanner: Scanner, node: PointerNode, offset: number, search: PointerSearch): boolean {
  if (node.offset < 0) search.left--;
  node.offset = offset;
  const children = node.children;
  const c = scanner.text.charCodeAt(scanner.pos);
  if (children === undefined || (c !== LBRACE && c !== LBRACKET)) {
    scanner.skipValue();
    return false;
  }
  scanner.pos++;
  const close = c === LBRACE ? RBRACE : RBRACKET;
  for (let index = 0; ; index++) {
    scanner.skipTrivia();
    if (scanner.text.charCodeAt(scanner.pos) === close) break;
    let memberOffset = scanner.pos;
    let segment = String(index);
    if (c === LBRACE) segment = scanner.readKey();
    scanner.skipTrivia();
    if (c === LBRACKET) memberOffset = scanner.pos;
    const child = children.get(segment);
    if (child === undefined) scanner.skipValue();
    else if (visitPointerNode(scanner, child, memberOffset, search) || scanComplete(scanner.text, search, scanner.pos)) return true;
    scanner.skipTrivia();
    if (scanner.text.charCodeAt(scanner.pos) === COMMA) scanner.pos++;
  }
  scanner.pos++;
  return false;
}
