// Who may read GET /metrics (server/metrics.ts): METRICS_ALLOW's addresses, read once by the
// production server and checked at boot by app/lib/env.server.ts, as app/lib/proxy-trust.ts is for
// TRUST_PROXY. Free of state: the server's bundle takes its own copy (ADR 0021).
import net from "node:net";

/** The ranges Express (proxy-addr) names, which METRICS_ALLOW accepts too. */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ["127.0.0.1/8", "::1/128"],
  linklocal: ["169.254.0.0/16", "fe80::/10"],
  uniquelocal: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"],
};

/** The default: the machine itself (a Prometheus or an agent on the same host). */
export const DEFAULT_METRICS_ALLOW = "loopback";

/**
 * The addresses METRICS_ALLOW lets read /metrics without the token: a comma-separated list of
 * addresses, CIDR ranges and the names loopback, linklocal and uniquelocal; "none" for no address
 * (the token only). Unset or blank is "loopback". Null for a value that is none of these.
 */
export function metricsAllowList(raw: string | undefined): net.BlockList | null {
  const value = (raw ?? "").trim() || DEFAULT_METRICS_ALLOW;
  const list = new net.BlockList();
  if (value === "none") return list;
  for (const token of value.split(",").map((t) => t.trim())) {
    for (const entry of NAMED_RANGES[token] ?? [token]) {
      const [address = "", prefix, ...rest] = entry.split("/");
      const family = net.isIP(address);
      if (!family || rest.length) return null;
      const type = family === 4 ? "ipv4" : "ipv6";
      if (prefix === undefined) {
        list.addAddress(address, type);
        continue;
      }
      if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > (family === 4 ? 32 : 128)) return null;
      list.addSubnet(address, Number(prefix), type);
    }
  }
  return list;
}

/** Whether `address` (as a socket or Express reports it, IPv4 possibly as ::ffff:a.b.c.d) is on the list. */
export function isAllowedAddress(list: net.BlockList, address: string | undefined): boolean {
  if (!address) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const plain = mapped ? mapped[1]! : address;
  const family = net.isIP(plain);
  if (!family) return false;
  return list.check(plain, family === 4 ? "ipv4" : "ipv6");
}
