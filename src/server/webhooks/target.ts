/**
 * Where a webhook may go (decision 095, SSRF): the URL's host is resolved and every address it
 * resolves to is checked; private, loopback, link-local, unique-local, multicast, reserved and
 * unspecified addresses are refused, IPv4-mapped (and -compatible) IPv6 addresses as their IPv4
 * address. Loopback is allowed only when the operator says so (WEBHOOKS_ALLOW_LOOPBACK), and then
 * also over http; anywhere else only https. The delivery connects to the address checked here (its
 * own lookup is replaced), so a name that resolves differently a second time changes nothing.
 * Checked when an endpoint is registered and again before each delivery.
 */
import { lookup as dnsLookup } from "node:dns/promises";
import net from "node:net";
import { DomainError } from "../errors";

export type Lookup = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export const systemLookup: Lookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export interface Target {
  url: URL;
  /** The address to connect to, checked. */
  address: string;
  family: 4 | 6;
}

const IPV4_REFUSED: Array<[string, number]> = [
  ["0.0.0.0", 8], // "this network", 0.0.0.0
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback (allowed only by WEBHOOKS_ALLOW_LOOPBACK)
  ["169.254.0.0", 16], // link-local, cloud metadata (169.254.169.254)
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
];
const IPV6_REFUSED: Array<[string, number]> = [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["64:ff9b::", 96], // NAT64 (an IPv4 address behind it is not checked)
  ["64:ff9b:1::", 48],
  ["100::", 64], // discard
  ["2001::", 23], // IETF protocol assignments (Teredo among them)
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4
  ["fc00::", 7], // unique-local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
];

const refused = new net.BlockList();
for (const [address, prefix] of IPV4_REFUSED) refused.addSubnet(address, prefix, "ipv4");
for (const [address, prefix] of IPV6_REFUSED) refused.addSubnet(address, prefix, "ipv6");

/** The eight 16-bit groups of an IPv6 address (with an IPv4 tail read as two groups). */
function groupsOf(address: string): number[] {
  let text = address;
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(missing).fill("0"), ...right].map((group) => parseInt(group, 16));
}

/** An IPv6 address that stands for an IPv4 one (::ffff:a.b.c.d mapped, ::a.b.c.d compatible): that IPv4 address. */
function embeddedIPv4(address: string): string | null {
  const groups = groupsOf(address);
  if (groups.length !== 8 || groups.slice(0, 5).some((group) => group !== 0)) return null;
  if (groups[5] !== 0xffff && groups[5] !== 0) return null;
  const [high = 0, low = 0] = groups.slice(6);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** What an address is: one we may send to, loopback, or refused. */
export function classifyAddress(address: string): "public" | "loopback" | "refused" {
  let ip = address;
  let family = net.isIP(ip);
  if (family === 0) return "refused";
  if (family === 6) {
    // ::1 first: as an IPv4-compatible address it would read 0.0.0.1.
    if (groupsOf(ip).join() === "0,0,0,0,0,0,0,1") return "loopback";
    const v4 = embeddedIPv4(ip);
    if (v4 !== null) {
      ip = v4;
      family = 4;
    }
  }
  if (family === 4 && ip.startsWith("127.")) return "loopback";
  return refused.check(ip, family === 4 ? "ipv4" : "ipv6") ? "refused" : "public";
}

/** The URL's host resolved and checked; refused with the reason (a keyed message) otherwise. */
export async function resolveTarget(text: string, options: { allowLoopback: boolean; lookup: Lookup }): Promise<Target> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new DomainError("invalid", "webhookUrlInvalid");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new DomainError("invalid", "webhookUrlNotHttps");
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (host === "") throw new DomainError("invalid", "webhookUrlInvalid");
  let addresses: Array<{ address: string; family: number }>;
  if (net.isIP(host) !== 0) addresses = [{ address: host, family: net.isIP(host) }];
  else {
    try {
      addresses = await options.lookup(host);
    } catch {
      throw new DomainError("invalid", "webhookUrlUnresolved");
    }
  }
  if (addresses.length === 0) throw new DomainError("invalid", "webhookUrlUnresolved");
  // Every address the name has must pass: a name with one public and one private address is refused.
  const kinds = addresses.map((found) => classifyAddress(found.address));
  if (kinds.some((kind) => kind === "refused" || (kind === "loopback" && !options.allowLoopback)))
    throw new DomainError("invalid", "webhookUrlRefused");
  if (url.protocol === "http:" && !kinds.every((kind) => kind === "loopback")) throw new DomainError("invalid", "webhookUrlNotHttps");
  const [first] = addresses as [{ address: string; family: number }];
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
