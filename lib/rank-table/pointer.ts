/** JSON Pointer (RFC 6901) helpers. */

/** Escapes one reference token: "~" → "~0", "/" → "~1". */
export function escapePointerSegment(segment: string): string {
  if (!segment.includes("~") && !segment.includes("/")) return segment;
  return segment.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** Appends a key or array index to a pointer. */
export function childPointer(parent: string, segment: string | number): string {
  return `${parent}/${typeof segment === "number" ? segment : escapePointerSegment(segment)}`;
}

/** Splits a pointer into unescaped reference tokens; "" (the whole document) has none. */
export function splitPointer(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(pointer.startsWith("/") ? 1 : 0)
    .split("/")
    .map((segment) => (segment.includes("~") ? segment.replaceAll("~1", "/").replaceAll("~0", "~") : segment));
}
