// Builders for Request objects handed straight to route loaders and actions in integration tests.
export const ORIGIN = "http://localhost:3000";

export function getRequest(path: string, headers: Record<string, string> = {}) {
  return new Request(`${ORIGIN}${path}`, { headers: { Host: "localhost:3000", ...headers } });
}

export function jsonRequest(method: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  return new Request(`${ORIGIN}${path}`, {
    method,
    headers: { Host: "localhost:3000", Origin: ORIGIN, "Content-Type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

export function formRequest(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { Host: "localhost:3000", Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

/** A multipart POST as a browser sends one (files and all), with its Content-Length. */
export async function multipartRequest(
  path: string,
  fields: Record<string, File | string | File[]>,
  headers: Record<string, string> = {},
): Promise<Request> {
  const form = new FormData();
  // A list: several files under one name (an <input type=file multiple>).
  for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) form.append(k, one);
  const encoded = new Request(`${ORIGIN}${path}`, { method: "POST", body: form });
  const body = await encoded.arrayBuffer();
  return new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: {
      Host: "localhost:3000",
      Origin: ORIGIN,
      "Content-Type": encoded.headers.get("Content-Type")!,
      "Content-Length": String(body.byteLength),
      ...headers,
    },
    body,
  });
}

/** The Cookie header a browser would send back after these Set-Cookie headers (merged into `previous`). */
export function mergeCookies(setCookieHeaders: string[], previous = ""): string {
  const jar = new Map<string, string>();
  for (const part of previous.split(/;\s*/).filter(Boolean)) {
    const [k, ...v] = part.split("=");
    jar.set(k, v.join("="));
  }
  for (const header of setCookieHeaders) {
    const [pair] = header.split(";");
    const [k, ...v] = pair.split("=");
    jar.set(k.trim(), v.join("="));
  }
  return [...jar]
    .filter(([, v]) => v !== "")
    .map(([k, v]) => `${k}=${v}`)
    .join("; ");
}

/** The Cookie header a browser would send back after this response. */
export function cookiesFrom(response: Response, previous = ""): string {
  return mergeCookies(response.headers.getSetCookie(), previous);
}
