import ipaddr from "ipaddr.js";

export type AddressRange = [ipaddr.IPv4 | ipaddr.IPv6, number];

let parsed: { source: string; ranges: AddressRange[] } | undefined;

/**
 * `RANKSCOPE_TRUSTED_PROXIES`: comma-separated addresses or CIDRs of the reverse proxies in front of the console
 * (default none). Only a request whose connection comes from one of them may name the client (`X-Forwarded-For`),
 * the scheme (`X-Forwarded-Proto`) and the host (`X-Forwarded-Host`). Throws on an entry that is not an address
 * (scripts/serve.ts checks it before starting).
 */
export function trustedProxies(source = process.env.RANKSCOPE_TRUSTED_PROXIES ?? ""): AddressRange[] {
  if (parsed?.source === source) return parsed.ranges;
  const ranges = source
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry): AddressRange => {
      if (ipaddr.isValidCIDR(entry)) return ipaddr.parseCIDR(entry);
      if (ipaddr.isValid(entry)) {
        const address = ipaddr.process(entry);
        return [address, address.kind() === "ipv4" ? 32 : 128];
      }
      throw new Error(`RANKSCOPE_TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR (e.g. 10.0.0.5 or 10.0.0.0/24)`);
    });
  parsed = { source, ranges };
  return ranges;
}

/** Whether an address (already valid) lies in one of the trusted proxy ranges. */
export function isTrustedProxy(address: string, ranges = trustedProxies()): boolean {
  const ip = ipaddr.process(address);
  return ranges.some(([range, bits]) => range.kind() === ip.kind() && ip.match(range, bits));
}
