// TRUST_PROXY, read once for the production server (server/index.ts) and checked at boot by
// app/lib/env.server.ts. docs/decisions/0011 ("Proxies").
import net from "node:net";

/** Names Express (proxy-addr) knows for whole address ranges. */
const RANGE_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

function isAddressOrRange(token: string): boolean {
  if (RANGE_NAMES.has(token)) return true;
  const [address, prefix, ...rest] = token.split("/");
  const family = net.isIP(address ?? "");
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/** Express's "trust proxy": off, the number of proxies in front, or the addresses and ranges trusted. */
export type ProxyTrust = false | 1 | string[];

/**
 * What Express's "trust proxy" is set to for a TRUST_PROXY value:
 * - unset, "", "0" or "false": false (the socket's peer is the client; X-Forwarded-* are ignored);
 * - "1" or "true": 1 (one proxy in front, whatever its address: the right-most X-Forwarded-For
 *   entry is the client). Only safe when nothing but the proxy can reach the server;
 * - a comma-separated list of addresses, CIDR ranges or the names loopback, linklocal and
 *   uniquelocal: X-Forwarded-* count only on requests whose peer is one of them.
 * Null for a value that is none of these.
 */
export function proxyTrustSetting(raw: string | undefined): ProxyTrust | null {
  const value = (raw ?? "").trim();
  if (value === "" || value === "0" || value === "false") return false;
  if (value === "1" || value === "true") return 1;
  const tokens = value.split(",").map((t) => t.trim());
  return tokens.length > 0 && tokens.every(isAddressOrRange) ? tokens : null;
}
