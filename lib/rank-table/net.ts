/** Checks for the scalar formats a rank table uses: whole numbers, ports, IPv4 and IPv6 addresses. */
import ipaddr from "ipaddr.js";
import { MAX_PORT } from "./model";

const DIGIT_0 = 48, DIGIT_9 = 57, DOT = 46;

/**
 * The 32-bit value of a plain dotted-quad IPv4 address (four decimal parts 0–255 without leading zeros: the
 * "常规IPv4格式" HCCL asks for; ipaddr.js alone would also accept "10.1" or octal and hex parts), or -1.
 * Hand-written because it runs for every device, and the number makes a cheap key for duplicate detection.
 */
export function ipv4Value(text: string): number {
  let parts = 0;
  let address = 0;
  let i = 0;
  const length = text.length;
  while (i < length) {
    const start = i;
    let part = 0;
    for (let c = text.charCodeAt(i); c >= DIGIT_0 && c <= DIGIT_9; c = text.charCodeAt(++i)) part = part * 10 + c - DIGIT_0;
    const digits = i - start;
    if (digits === 0 || digits > 3 || part > 255 || (digits > 1 && text.charCodeAt(start) === DIGIT_0)) return -1;
    address = address * 256 + part;
    parts++;
    if (i === length) break;
    if (text.charCodeAt(i) !== DOT || parts === 4) return -1;
    i++;
    if (i === length) return -1;
  }
  return parts === 4 ? address : -1;
}

export function isPlainIPv4(text: string): boolean {
  return ipv4Value(text) >= 0;
}

/** A key under which equal addresses compare equal: a number for IPv4, the normalized text for IPv6. */
export type AddressKey = number | string;

/**
 * The key of a valid IPv4 or IPv6 address ("::1" and "0:0::1" are one address), or undefined when the text is
 * not one (IPv6 zones such as "%eth0" are not allowed in a rank table).
 */
export function addressKey(text: string): AddressKey | undefined {
  const v4 = ipv4Value(text);
  if (v4 >= 0) return v4;
  if (text.includes(":") && !text.includes("%") && ipaddr.IPv6.isValid(text)) return ipaddr.IPv6.parse(text).toNormalizedString();
  return undefined;
}

export function addressFamily(key: AddressKey): 4 | 6 {
  return typeof key === "number" ? 4 : 6;
}

/** The value of a string of decimal digits ("0", "15", "0042"), or undefined for anything else. */
export function parseWholeNumber(text: string): number | undefined {
  const length = text.length;
  if (length === 0) return undefined;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c < DIGIT_0 || c > DIGIT_9) return undefined;
  }
  return Number(text);
}

/** A port number 1–65535, or undefined. */
export function parsePort(text: string): number | undefined {
  const port = parseWholeNumber(text);
  return port !== undefined && port >= 1 && port <= MAX_PORT ? port : undefined;
}
