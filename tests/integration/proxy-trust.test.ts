// TRUST_PROXY as the production server applies it (server/index.ts): which address a request
// is limited under, behind no proxy, one proxy of any address, or proxies named by address.
import type { AddressInfo } from "node:net";
import express from "express";
import { describe, expect, it } from "vitest";
import { proxyTrustSetting } from "~/lib/proxy-trust";

/** The client address Express reports for one request from 127.0.0.1 with the given X-Forwarded-For. */
async function clientAddress(trustProxy: string, forwardedFor: string | null): Promise<string | undefined> {
  const app = express();
  app.set("trust proxy", proxyTrustSetting(trustProxy) ?? false);
  app.get("/", (req, res) => res.send(req.ip));
  const server = await new Promise<ReturnType<typeof app.listen>>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  try {
    const port = (server.address() as AddressInfo).port;
    const answer = await fetch(`http://127.0.0.1:${port}/`, { headers: forwardedFor ? { "X-Forwarded-For": forwardedFor } : {} });
    return (await answer.text()).replace(/^::ffff:/, "");
  } finally {
    server.close();
  }
}

describe("TRUST_PROXY", () => {
  it("reads off, one proxy, and lists of addresses, ranges and range names", () => {
    expect(proxyTrustSetting(undefined)).toBe(false);
    expect(proxyTrustSetting("0")).toBe(false);
    expect(proxyTrustSetting("1")).toBe(1);
    expect(proxyTrustSetting("true")).toBe(1);
    expect(proxyTrustSetting(" loopback , 10.1.2.0/24 ,fd00::/8")).toEqual(["loopback", "10.1.2.0/24", "fd00::/8"]);
    for (const bad of ["yes", "10.1.2.0/24/1", "300.1.1.1", "loopback,,", "proxy.internal"]) expect(proxyTrustSetting(bad)).toBeNull();
  });

  it("off: the socket's peer is the client, whatever X-Forwarded-For claims", async () => {
    expect(await clientAddress("0", "203.0.113.7")).toBe("127.0.0.1");
  });

  it("1: the right-most X-Forwarded-For entry (the one the proxy added), never the client's own claims", async () => {
    expect(await clientAddress("1", "198.51.100.1, 203.0.113.7")).toBe("203.0.113.7");
  });

  it("a list: X-Forwarded-For counts only when the peer is a listed proxy", async () => {
    // The peer (127.0.0.1) is not 10.0.0.0/8: someone reaching the server directly cannot pick their address.
    expect(await clientAddress("10.0.0.0/8", "203.0.113.7")).toBe("127.0.0.1");
    expect(await clientAddress("loopback", "198.51.100.1, 203.0.113.7")).toBe("203.0.113.7");
    expect(await clientAddress("10.0.0.5,127.0.0.1", "203.0.113.7")).toBe("203.0.113.7");
  });
});
