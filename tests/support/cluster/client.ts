// HTTP clients for the cross-server tests: a customer (or the shop's staff) talking to one server's
// own address, or to nginx's, with a cookie jar (tests/support/requests.ts merges Set-Cookie as a
// browser does), a bearer token once signed in, and an address of its own in X-Forwarded-For (the
// servers trust loopback proxies, so each client is its own visitor for the per-address limits).
// Mails are read from the cluster's shared MAIL_DIR (tests/support/outbox.ts).
import crypto from "node:crypto";
import { expect } from "vitest";
import { latestCode, mailsTo } from "../outbox";
import { mergeCookies } from "../requests";
import { SHIPPING } from "../shipping.mjs";

export const PASSWORD = "Cluster-teak-42";

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** the parsed body when the answer is JSON */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  location: string;
}

let addresses = 0;

/** A client address no other client of this run uses (10.200.0.0/16 onwards). */
export function newAddress(): string {
  addresses += 1;
  return `10.${200 + Math.floor(addresses / 65000)}.${Math.floor(addresses / 250) % 250}.${1 + (addresses % 250)}`;
}

export const uniqueEmail = (tag: string) => `cluster-${tag}-${crypto.randomBytes(5).toString("hex")}@example.com`;

export class Client {
  cookie = "";
  token: string | null = null;
  readonly address: string;

  constructor(address = newAddress()) {
    this.address = address;
  }

  /**
   * One request to `base` (a server's own URL, or nginx's): JSON or a form, same-site (Origin is
   * the base it goes to), redirects not followed.
   */
  async send(
    base: string,
    method: string,
    path: string,
    init: { json?: unknown; form?: Record<string, string>; body?: FormData; bearer?: boolean } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = {
      "X-Forwarded-For": this.address,
      Accept: path.startsWith("/api/") ? "application/json" : "text/html",
    };
    if (this.cookie) headers.Cookie = this.cookie;
    if (this.token && init.bearer !== false) headers.Authorization = `Bearer ${this.token}`;
    if (method !== "GET" && method !== "HEAD") headers.Origin = base;
    let body: string | FormData | undefined;
    if (init.json !== undefined) {
      body = JSON.stringify(init.json);
      headers["Content-Type"] = "application/json";
    } else if (init.form) {
      body = new URLSearchParams(init.form).toString();
      headers["Content-Type"] = "application/x-www-form-urlencoded";
    } else if (init.body) {
      body = init.body;
    }
    const response = await fetch(new URL(path, base), { method, headers, body, redirect: "manual" });
    this.cookie = mergeCookies(response.headers.getSetCookie(), this.cookie);
    const text = await response.text();
    let parsed: unknown = null;
    if ((response.headers.get("Content-Type") ?? "").includes("json")) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = null;
      }
    }
    return { status: response.status, headers: response.headers, text, body: parsed, location: response.headers.get("Location") ?? "" };
  }
}

/** Polls `read` until `accept` holds (mails come from the outbox's worker, a moment after the change). */
export async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean, what: string, timeoutMs = 20_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (accept(value)) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs / 1000} s (last: ${JSON.stringify(value)})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The newest sign-up code mailed to `email`, once the mail is in the folder. */
export async function mailedCode(email: string, mailDir: string): Promise<string> {
  return eventually(
    () => latestCode(email, mailDir).catch(() => ""),
    (code) => /^\d{4}$/.test(code),
    `the sign-up code mailed to ${email}`,
  );
}

export interface Customer extends Client {
  email: string;
}

/**
 * A verified customer: registered through `registerAt`, the code from the shared mail folder,
 * verified through `verifyAt` (the same server or another); signed in with the token that answers.
 */
export async function registerCustomer(registerAt: string, verifyAt: string, mailDir: string, tag: string): Promise<Customer> {
  const client = Object.assign(new Client(), { email: uniqueEmail(tag) }) as Customer;
  const registered = await client.send(registerAt, "POST", "/api/user/auth/register", {
    json: { name: "Asha Rani Verma", email: client.email, password: PASSWORD, mobile: "9876543210" },
  });
  expect(registered.status, `register ${client.email}: ${registered.text.slice(0, 200)}`).toBe(201);
  const otp = await mailedCode(client.email, mailDir);
  const verified = await client.send(verifyAt, "POST", "/api/user/auth/verifyOtp", {
    json: { email: client.email, otp, attemptId: registered.body?.attemptId },
  });
  expect(verified.status, `verify ${client.email}: ${verified.text.slice(0, 200)}`).toBe(200);
  client.token = verified.body.token as string;
  return client;
}

/** The staff's browser, signed in through Admin Access on `base`. */
export async function adminClient(base: string, password: string): Promise<Client> {
  const admin = new Client();
  const answer = await admin.send(base, "POST", "/admin/login", { form: { password } });
  expect(answer.status, `Admin Access: ${answer.text.slice(0, 200)}`).toBe(303);
  expect(admin.cookie).toMatch(/__session=/);
  return admin;
}

export { mailsTo, SHIPPING };

/** A product the staff makes through `base`'s admin form (urlencoded, no image): its id. */
export async function createProduct(
  admin: Client,
  base: string,
  fields: { title: string; categoryId: number; price: number; stock: number },
) {
  const created = await admin.send(base, "POST", "/admin/products?new=1", {
    form: {
      intent: "create",
      title: fields.title,
      categoryId: String(fields.categoryId),
      price: String(fields.price),
      imgPath: "/images/products/bench.svg",
      description: "A piece made for the cluster tests.",
      inStock: "on",
      stock: String(fields.stock),
    },
  });
  expect([302, 303], created.text.slice(0, 300)).toContain(created.status);
}
