// Express's request as the Fetch API's, and back: what @remix-run/express does (its helpers are
// not exported), so that the page cache (server/page-cache.ts) can stand between the two.
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@remix-run/node";
import type { Request as ExpressRequest, Response as ExpressResponse } from "express";

/** The Fetch API request for an Express one; aborted when the answer can no longer be written. */
export function remixRequest(req: ExpressRequest, res: ExpressResponse): Request {
  // req.hostname respects "trust proxy"; the port comes from X-Forwarded-Host or Host, as the adapter has it.
  const portOf = (value: string | undefined) => Number.parseInt(value?.split(":")[1] ?? "", 10);
  const port = [portOf(req.get("X-Forwarded-Host")), portOf(req.get("host"))].find((p) => Number.isSafeInteger(p));
  const url = new URL(`${req.protocol}://${req.hostname}${port ? `:${port}` : ""}${req.originalUrl}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value) headers.set(name, value);
  }
  let controller: AbortController | null = new AbortController();
  // Loaders are aborted when the answer can no longer be written (close without finish).
  res.on("finish", () => (controller = null));
  res.on("close", () => controller?.abort());
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") Object.assign(init, { body: createReadableStreamFromReadable(req), duplex: "half" });
  return new Request(url.href, init);
}

/** Writes a Fetch API response to Express's. */
export async function sendResponse(res: ExpressResponse, response: Response): Promise<void> {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers.entries()) res.append(name, value);
  if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
}
