import { afterEach, describe, expect, it } from "vitest";
import { clientAddress, isSameOrigin, isSecureRequest, peerAddressHeader, peerSchemeHeader, requestOrigin } from "./request";

const headers = (values: Record<string, string>) => new Headers(values);

afterEach(() => {
  delete process.env.RANKSCOPE_TRUSTED_PROXIES;
});

describe("clientAddress", () => {
  it("is the connection's address, whatever X-Forwarded-For says, when no proxy is trusted", () => {
    expect(clientAddress(headers({ [peerAddressHeader]: "::ffff:192.0.2.7", "x-forwarded-for": "203.0.113.9" }))).toBe("192.0.2.7");
  });

  it("behind trusted proxies, is the nearest X-Forwarded-For entry that is not one of them", () => {
    process.env.RANKSCOPE_TRUSTED_PROXIES = "10.0.0.0/24, 2001:db8::1";
    // The client forged the first entry; the proxies appended the real one and their own.
    const chain = { [peerAddressHeader]: "10.0.0.2", "x-forwarded-for": "6.6.6.6, 198.51.100.4, 10.0.0.1" };
    expect(clientAddress(headers(chain))).toBe("198.51.100.4");
    expect(clientAddress(headers({ [peerAddressHeader]: "2001:db8::1", "x-forwarded-for": "198.51.100.5" }))).toBe("198.51.100.5");
    // Garbage in the chain: the last hop a trusted proxy vouches for.
    expect(clientAddress(headers({ [peerAddressHeader]: "10.0.0.2", "x-forwarded-for": "not-an-address, 198.51.100.6" }))).toBe("198.51.100.6");
    // A connection from elsewhere is its own client.
    expect(clientAddress(headers({ [peerAddressHeader]: "192.0.2.8", "x-forwarded-for": "198.51.100.4" }))).toBe("192.0.2.8");
  });

  it("refuses a malformed RANKSCOPE_TRUSTED_PROXIES, naming the entry", () => {
    process.env.RANKSCOPE_TRUSTED_PROXIES = "10.0.0.1, proxy.local";
    expect(() => clientAddress(headers({ [peerAddressHeader]: "10.0.0.1" }))).toThrow(/"proxy\.local" is not an IP address or CIDR/);
  });
});

describe("requestOrigin", () => {
  it("uses the connection's scheme and Host, and X-Forwarded-Proto/-Host only from a trusted proxy", () => {
    const forwarded = { host: "console.internal:3000", "x-forwarded-proto": "https", "x-forwarded-host": "rankscope.example" };
    expect(requestOrigin(headers({ ...forwarded, [peerAddressHeader]: "192.0.2.9", [peerSchemeHeader]: "http" }), "http://x/")).toBe("http://console.internal:3000");
    process.env.RANKSCOPE_TRUSTED_PROXIES = "192.0.2.9";
    const proxied = headers({ ...forwarded, [peerAddressHeader]: "192.0.2.9", [peerSchemeHeader]: "http" });
    expect(requestOrigin(proxied, "http://x/")).toBe("https://rankscope.example");
    expect(isSecureRequest(proxied, "http://x/")).toBe(true);
    expect(isSameOrigin(headers({ ...forwarded, [peerAddressHeader]: "192.0.2.9", origin: "https://rankscope.example" }), "http://x/")).toBe(true);
    expect(isSameOrigin(headers({ ...forwarded, [peerAddressHeader]: "192.0.2.9", origin: "http://rankscope.example" }), "http://x/")).toBe(false);
  });
});
