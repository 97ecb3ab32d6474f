// nginx as the edge (npm run cluster's default, --forwarded-for replace): the address it passes on is
// the connecting client's own, whatever X-Forwarded-For the client sent, so a client cannot name a
// new address on each request to get round the per-address limits (ADR 0020).
import { describe, expect, it } from "vitest";
import { Client, PASSWORD, registerCustomer } from "../support/cluster/client";
import { clusterForFile } from "../support/cluster/setup";

const cluster = clusterForFile({}, { servers: 1, forwardedFor: "replace" });

describe("nginx as the edge", () => {
  it("counts a guesser that names a new X-Forwarded-For on every try as the one client it is", async () => {
    const { url, mailDir } = cluster();
    const customer = await registerCustomer(url, url, mailDir, "edge");
    // Ten wrong passwords, each from a client naming an address of its own (10.200.x.y).
    for (let i = 0; i < 10; i += 1) {
      const wrong = await new Client().send(url, "POST", "/api/user/auth/login", {
        json: { email: customer.email, password: `wrong-${i}-pass` },
      });
      expect(wrong.status, `try ${i + 1}`).toBe(401);
    }
    // Yet another named address: nginx replaced every one with the client's real one, so the limit holds.
    const right = await new Client().send(url, "POST", "/api/user/auth/login", { json: { email: customer.email, password: PASSWORD } });
    expect(right.status).toBe(429);
  });
});
