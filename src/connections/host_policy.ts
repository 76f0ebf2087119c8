/**
 * Where a warehouse connection may go. A host name is resolved (every A and
 * AAAA record) and refused when any address is loopback, private, link-local,
 * CGNAT, unique-local, a metadata address, `0.0.0.0/8`, multicast/reserved or
 * an IPv4-mapped/compatible IPv6 address — unless `ALLOWED_CONNECTION_HOSTS`
 * lists the name or a CIDR holding the address. Addresses are parsed the way
 * the system's resolver reads them (`127.1`, `0x7f.1`, `2130706433`,
 * `[::ffff:127.0.0.1]`), so a spelling can't slip past. Drivers then connect
 * to the checked address, never to the name again (no DNS rebinding).
 * @module
 */
import { lookup as dnsLookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

/** Refusal of a destination; the message is for the server log and admins. */
export class HostRefusedError extends Error {
  override name = "HostRefusedError";
}

/** Resolves a name to addresses (tests may pass their own). */
export type Resolver = (host: string) => Promise<string[]>;

/** The parsed `ALLOWED_CONNECTION_HOSTS` and the resolver. */
export interface HostPolicy {
  /** Lower-case host names (no trailing dot) allowed whatever they resolve to. */
  names: Set<string>;
  /** Addresses and CIDRs allowed although not public. */
  allowed: BlockList;
  /** Entries as configured (for messages). */
  entries: string[];
  resolve: Resolver;
}

const systemResolver: Resolver = async (host) => (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * Non-public ranges: never reachable unless allowed. Two lists, because a
 * `BlockList` also matches IPv4 addresses against IPv4-mapped IPv6 rules.
 */
const BLOCKED4 = new BlockList();
const BLOCKED6 = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // CGNAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, 169.254.169.254 metadata
  ["172.16.0.0", 12],
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) BLOCKED4.addSubnet(net, bits, "ipv4");
for (const [net, bits] of [
  ["::", 128], // unspecified
  ["::1", 128],
  ["::", 96], // IPv4-compatible (deprecated)
  ["::ffff:0:0", 96], // IPv4-mapped
  ["64:ff9b::", 96], // NAT64
  ["64:ff9b:1::", 48],
  ["100::", 64], // discard
  ["2001::", 32], // Teredo
  ["2001:db8::", 32],
  ["2002::", 16], // 6to4 embeds an IPv4 address
  ["fc00::", 7], // unique-local, fd00:ec2::254 metadata
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
] as const) BLOCKED6.addSubnet(net, bits, "ipv6");

/**
 * Parses `ALLOWED_CONNECTION_HOSTS`: a comma list of host names, addresses
 * or CIDRs (`127.0.0.1`, `10.0.0.0/8`, `db.internal`, `fd00::/8`).
 * Throws on an entry that is neither.
 */
export function hostPolicy(list: string | string[] | undefined, resolve: Resolver = systemResolver): HostPolicy {
  const entries = (Array.isArray(list) ? list : (list ?? "").split(",")).map((e) => e.trim()).filter(Boolean);
  const allowed = new BlockList();
  const names = new Set<string>();
  for (const entry of entries) {
    const [addr, bits, extra] = entry.split("/");
    const literal = addressLiteral(addr!);
    if (literal && extra === undefined) {
      const family = isIP(literal) === 6 ? "ipv6" : "ipv4";
      const max = family === "ipv6" ? 128 : 32;
      const n = bits === undefined ? max : Number(bits);
      if (!Number.isInteger(n) || n < 0 || n > max) throw new Error(`ALLOWED_CONNECTION_HOSTS: bad prefix length in '${entry}'`);
      allowed.addSubnet(literal, n, family);
    } else if (bits === undefined && /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/i.test(entry)) {
      names.add(normalName(entry));
    } else {
      throw new Error(`ALLOWED_CONNECTION_HOSTS: '${entry}' is neither a host name, an address nor a CIDR`);
    }
  }
  return { names, allowed, entries, resolve };
}

function normalName(host: string): string {
  return host.toLowerCase().replace(/\.$/, "");
}

/**
 * The address a host literal stands for, read as `inet_aton`/`getaddrinfo`
 * read it (`127.1`, `0x7f.0.0.1`, `017700000001`, `2130706433`, `[::1]`,
 * `::ffff:127.0.0.1`, `fe80::1%eth0`), or undefined when it is a name.
 */
export function addressLiteral(host: string): string | undefined {
  let h = host.trim();
  if (h.startsWith("[") && h.endsWith("]")) h = h.slice(1, -1);
  const zone = h.indexOf("%");
  if (zone > 0 && h.includes(":")) h = h.slice(0, zone);
  if (isIP(h) === 6) return canonicalV6(h);
  return inetAton(h);
}

/** `inet_aton`: 1 to 4 parts, each decimal, octal (leading 0) or hex (0x). */
function inetAton(h: string): string | undefined {
  const parts = h.replace(/\.$/, "").split(".");
  if (parts.length < 1 || parts.length > 4) return undefined;
  const nums: number[] = [];
  for (const p of parts) {
    let n: number;
    if (/^0x[0-9a-f]*$/i.test(p)) n = p.length === 2 ? 0 : parseInt(p.slice(2), 16);
    else if (/^0[0-7]*$/.test(p)) n = parseInt(p, 8);
    else if (/^[1-9][0-9]*$/.test(p)) n = parseInt(p, 10);
    else return undefined;
    nums.push(n);
  }
  const last = nums.pop()!;
  if (nums.some((n) => n > 255) || last >= 2 ** (8 * (4 - nums.length))) return undefined;
  let value = last;
  nums.forEach((n, i) => { value += n * 2 ** (8 * (3 - i)); });
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join(".");
}

/** The 8 groups of an IPv6 address (with an embedded dotted IPv4 tail) in canonical text. */
function canonicalV6(h: string): string {
  let text = h.toLowerCase();
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const b = v4[1]!.split(".").map(Number);
    text = text.slice(0, -v4[1]!.length) + `${((b[0]! << 8) | b[1]!).toString(16)}:${((b[2]! << 8) | b[3]!).toString(16)}`;
  }
  const [head, tail] = text.split("::");
  const a = head ? head.split(":") : [];
  const c = tail !== undefined && tail !== "" ? tail.split(":") : [];
  const fill = tail !== undefined ? Array(8 - a.length - c.length).fill("0") : [];
  return [...a, ...fill, ...c].map((g) => parseInt(g, 16).toString(16)).join(":");
}

function family(address: string): "ipv4" | "ipv6" {
  return isIP(address) === 6 ? "ipv6" : "ipv4";
}

function blocked(address: string): boolean {
  return isIP(address) === 6 ? BLOCKED6.check(address, "ipv6") : BLOCKED4.check(address, "ipv4");
}

/** Whether an address is publicly routable (not in any refused range). */
export function isPublicAddress(address: string): boolean {
  const a = addressLiteral(address);
  if (!a) return false;
  return !blocked(a);
}

/**
 * Resolves `host` and returns the address to connect to (the first one),
 * after checking every address it resolves to. Throws
 * {@link HostRefusedError} when the host is not a plain name or address, does
 * not resolve, or any address is not public and not allowed.
 */
export async function checkedAddress(host: string, policy: HostPolicy): Promise<string> {
  const raw = host.trim();
  if (raw === "" || /[/\\\s@,]/.test(raw)) throw new HostRefusedError(`host '${host}' is not a host name or an address`);
  const literal = addressLiteral(raw);
  const nameAllowed = !literal && policy.names.has(normalName(raw));
  let addresses: string[];
  if (literal) addresses = [literal];
  else {
    if (!/^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*\.?$/i.test(raw)) {
      throw new HostRefusedError(`host '${host}' is not a host name or an address`);
    }
    try {
      addresses = (await policy.resolve(raw)).map((a) => addressLiteral(a) ?? a);
    } catch (error) {
      throw new HostRefusedError(`host '${host}' does not resolve: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (addresses.length === 0) throw new HostRefusedError(`host '${host}' does not resolve`);
  }
  if (!nameAllowed) {
    for (const a of addresses) {
      if (isIP(a) === 0) throw new HostRefusedError(`host '${host}' resolved to '${a}', not an address`);
      if (blocked(a) && !policy.allowed.check(a, family(a))) {
        throw new HostRefusedError(
          `host '${host}' resolves to ${a}, a loopback, private, link-local or reserved address; ` +
            "list it in ALLOWED_CONNECTION_HOSTS to allow it",
        );
      }
    }
  }
  return addresses[0]!;
}
