// An app server that dies while it answers (a kill, a crash, an out-of-memory) must not reach the
// client as a whole answer. Over HTTP/1.0, nginx's default towards its upstreams, an answer without a
// Content-Length ends when the connection closes, so a server killed after its headers looks like
// one that sent a short body: "201 Created" with half a JSON object, or none. The client then
// believes a half-told answer and never retries. Here a stand-in upstream writes its headers and
// part of a body, then drops the connection; the client must see a broken answer, never a complete one.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startNginx } from "../../scripts/cluster.mjs";
import { freePort } from "../../scripts/throwaway.mjs";

let upstream: http.Server;
let nginx: Awaited<ReturnType<typeof startNginx>>;
let dir: string;

beforeAll(async () => {
  upstream = http.createServer((request, response) => {
    if (request.url === "/readyz") {
      response.end("ready");
      return;
    }
    response.writeHead(201, { "Content-Type": "application/json; charset=utf-8" });
    const cut = () => response.socket?.destroy();
    if (request.url === "/headers-only") {
      response.flushHeaders();
      setTimeout(cut, 50);
    } else {
      response.write('{"id":12');
      setTimeout(cut, 50);
    }
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-cut-answer-"));
  fs.chmodSync(dir, 0o711);
  const port = await freePort();
  nginx = await startNginx({ dir, port, servers: [{ port: (upstream.address() as AddressInfo).port }], forwardedFor: "replace" });
});

afterAll(async () => {
  await nginx?.stop();
  await new Promise((resolve) => upstream?.close(resolve));
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** What the client ends with: the whole body, or the error that broke it. */
async function read(pathname: string): Promise<{ status: number; text: string } | { broken: string }> {
  try {
    const response = await fetch(new URL(pathname, nginx.url), {
      method: "POST",
      body: "{}",
      headers: { "Content-Type": "application/json" },
    });
    return { status: response.status, text: await response.text() };
  } catch (error) {
    return { broken: String(error) };
  }
}

describe("an answer cut short by a dying app server", () => {
  it("reaches the client broken, not as a short whole answer (part of a body sent)", async () => {
    expect(await read("/api/orders/add")).toHaveProperty("broken");
  });

  it("reaches the client broken, not as an empty whole answer (headers only)", async () => {
    expect(await read("/headers-only")).toHaveProperty("broken");
  });
});
