/** Checks for the scalar formats a rank table uses: whole numbers, ports, IPv4 and IPv6 addresses. */
import ipaddr from "ipaddr.js";
import { MAX_PORT } from "./model";

const DIGIT_0 = 48, DIGIT_9 = 57, DOT = 46;

/**
 * A plain dotted-quad IPv4 address: four decimal parts 0–255 without leading zeros (the "常规IPv4格式" HCCL asks
 * for; ipaddr.js would also accept "10.1" or octal/hex parts). Hand-written because it runs for every device.
 */
export function isPlainIPv4(text: string): boolean {
  let parts = 0;
  let i = 0;
  const length = text.length;
  while (i < length) {
    const start = i;
    let value = 0;
    for (let c = text.charCodeAt(i); c >= DIGIT_0 && c <= DIGIT_9; c = text.charCodeAt(++i)) value = value * 10 + c - DIGIT_0;
    const digits = i - start;
    if (digits === 0 || digits > 3 || value > 255 || (digits > 1 && text.charCodeAt(start) === DIGIT_0)) return false;
    parts++;
    if (i === length) break;
    if (text.charCodeAt(i) !== DOT || parts === 4) return false;
    i++;
    if (i === length) return false;
  }
  return parts === 4;
}

/** The address family of a valid IPv4 or IPv6 address (IPv6 without a zone), or undefined. */
export function ipFamily(text: string): 4 | 6 | undefined {
  if (isPlainIPv4(text)) return 4;
  if (text.includes(":") && !text.includes("%") && ipaddr.IPv6.isValid(text)) return 6;
  return undefined;
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

/** A key under which equal addresses compare equal ("::1" and "0:0::1"), for duplicate detection. */
export function ipKey(address: string, family: 4 | 6): string {
  return family === 4 ? address : ipaddr.IPv6.parse(address).toNormalizedString();
}
