// Customers for the browser tests, made without walking the pages: the account through the API
// (POST /api/user/auth/register, the code from the mail folder, POST /api/user/auth/verifyOtp),
// then a browser signed in by posting the /login form as the no-JS page does. Only the accounts
// specs walk the real sign-up, OTP and login pages (tests/e2e/accounts.spec.ts and friends).
// This module must not import ./fixtures (fixtures.ts builds the worker's customer from it).
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, request } from "@playwright/test";
import { BASE_URL, MAIL_DIR } from "../../../playwright.config";
import { latestCode } from "../outbox";

export interface Account {
  name: string;
  email: string;
  mobile?: string;
  password: string;
}

/** Anything that names its project: a TestInfo or a WorkerInfo. */
interface ProjectInfo {
  project: { name: string };
}

/** A lower-case address no other test (or project, or run) uses. */
export function uniqueEmail(info: ProjectInfo, tag = "user"): string {
  const random = Math.random().toString(36).slice(2, 8);
  return `${info.project.name}-${tag}-${Date.now()}-${random}@example.com`.toLowerCase();
}

/** The password of every account newAccount makes (unless a test gives its own). */
export const DEFAULT_PASSWORD = "Teak-wood-42";

export function newAccount(info: ProjectInfo, overrides: Partial<Account> & { tag?: string } = {}): Account {
  const { tag, ...rest } = overrides;
  return { name: "Asha Rani Verma", email: uniqueEmail(info, tag), mobile: "9876543210", password: DEFAULT_PASSWORD, ...rest };
}

let sent = 0;

/**
 * An address of its own for a request sent beside the page (page.request and API contexts do
 * not carry the X-Forwarded-For the fixture gives the page): the per-address limits (sign-up,
 * login, the admin login) then count one test's tries only, as for a real shopper.
 */
export function requestAddress(info: { workerIndex: number }): string {
  sent += 1;
  return `172.${16 + (info.workerIndex % 16)}.${Math.floor(sent / 250) % 250}.${sent % 250}`;
}

/** Headers of a same-site post sent beside the page: the shop's Origin, an address of its own. */
export function postHeaders(info: { workerIndex: number }): Record<string, string> {
  return { Origin: BASE_URL, "X-Forwarded-For": requestAddress(info) };
}

/** The newest sign-up code mailed to `email`, waiting until the mail exists. */
export async function mailedCode(email: string): Promise<string> {
  let code = "";
  await expect
    .poll(async () => (code = await latestCode(email, MAIL_DIR).catch(() => "")), { message: `sign-up code mailed to ${email}` })
    .toMatch(/^\d{4}$/);
  return code;
}

/**
 * Register and verify `account` through the API, as a mobile client does; answers its bearer
 * token. `api` should carry no guest session (a guest cart sent with the cookie would join the
 * new account).
 */
export async function registerThroughApi(api: APIRequestContext, account: Account, info: { workerIndex: number }): Promise<string> {
  const register = await api.post("/api/user/auth/register", {
    data: { name: account.name, email: account.email, password: account.password, mobile: account.mobile ?? "" },
    headers: postHeaders(info),
  });
  expect(register.status(), `register ${account.email}`).toBe(201);
  const { attemptId } = (await register.json()) as { attemptId: string };
  const verify = await api.post("/api/user/auth/verifyOtp", {
    data: { email: account.email, otp: await mailedCode(account.email), attemptId },
    headers: postHeaders(info),
  });
  expect(verify.status(), `verify ${account.email}`).toBe(200);
  return ((await verify.json()) as { token: string }).token;
}

/**
 * Sign `api` (a page's page.request shares the page's cookies) in as `account` by posting the
 * /login form. The redirect is followed, so its 'Login successfully' toast is read there and
 * the test's first page starts without it.
 */
export async function logInThroughForm(api: APIRequestContext, account: Account, info: { workerIndex: number }) {
  const response = await api.post("/login", {
    form: { email: account.email, password: account.password, remember: "on", redirectTo: "/profile" },
    headers: postHeaders(info),
  });
  expect(response.url(), `login of ${account.email}`).toMatch(/\/profile$/);
  expect(response.status()).toBe(200);
}

/** A new verified customer (nobody signed in). */
export async function createCustomer(
  info: ProjectInfo & { workerIndex: number },
  overrides: Partial<Account> & { tag?: string } = {},
): Promise<Account> {
  const account = newAccount(info, overrides);
  const api = await request.newContext({ baseURL: BASE_URL });
  try {
    await registerThroughApi(api, account, info);
  } finally {
    await api.dispose();
  }
  return account;
}

/** Sign the page's browser context in as `account` (the next page it opens is signed in). */
export async function signIn(page: Page, account: Account, info: { workerIndex: number }) {
  await logInThroughForm(page.request, account, info);
}

/** A new customer of this test alone, signed in on `page`. */
export async function signedInCustomer(
  page: Page,
  info: ProjectInfo & { workerIndex: number },
  overrides: Partial<Account> & { tag?: string } = {},
): Promise<Account> {
  const account = await createCustomer(info, overrides);
  await signIn(page, account, info);
  return account;
}
