/**
 * The client address of a request, the key of per-address limits. Without
 * `TRUST_PROXY` it is the address that connected. With it, the connecting peer
 * is a proxy and `X-Forwarded-For` is read from the right: each proxy appends
 * the address it saw, so the rightmost entry that is not one of our proxies
 * (`TRUSTED_PROXIES`, addresses or CIDRs) is the client. Entries further left
 * were written by the client itself and are never believed, so rotating them
 * changes nothing.
 * @module
 */
import { BlockList, isIP } from "node:net";
import type { Config } from "../config.ts";

function proxyList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address, bits] = entry.split("/");
    const family = isIP(address ?? "");
    if (!family) throw new Error(`TRUSTED_PROXIES: '${entry}' is not an IP address or CIDR`);
    const type = family === 4 ? "ipv4" : "ipv6";
    if (bits === undefined) list.addAddress(address!, type);
    else {
      const prefix = Number(bits);
      if (!Number.isInteger(prefix) || prefix < 0 || prefix > (family === 4 ? 32 : 128)) throw new Error(`TRUSTED_PROXIES: bad prefix in '${entry}'`);
      list.addSubnet(address!, prefix, type);
    }
  }
  return list;
}

function strip(entry: string): string {
  let e = entry.trim();
  if (e.startsWith("[")) e = e.slice(1, e.indexOf("]") > 0 ? e.indexOf("]") : undefined); // [v6]:port
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(e)) e = e.slice(0, e.lastIndexOf(":")); // v4:port
  return e;
}

/** Resolves client addresses for one configuration. */
export type ClientAddress = (request: Request, peer: string | undefined) => string | undefined;

/** Creates the resolver of {@link Config.trustProxy} and {@link Config.trustedProxies}. */
export function clientAddressResolver(config: Pick<Config, "trustProxy" | "trustedProxies">): ClientAddress {
  if (!config.trustProxy) return (_request, peer) => peer;
  const trusted = proxyList(config.trustedProxies);
  const isTrusted = (address: string) => {
    const family = isIP(address);
    return family !== 0 && trusted.check(address, family === 4 ? "ipv4" : "ipv6");
  };
  return (request, peer) => {
    const header = request.headers.get("x-forwarded-for");
    if (!header) return peer;
    const entries = header.split(",").map(strip).filter(Boolean);
    for (let i = entries.length - 1; i >= 0; i--) {
      const entry = entries[i]!;
      if (!isIP(entry)) return peer; // garbage where an address must be: not a client we can name
      if (!isTrusted(entry)) return entry;
    }
    return entries[0] ?? peer;
  };
}
