import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { adminPassword } from "~/lib/admin-password.server";
import { db } from "~/lib/db.server";
import { parseEnv } from "~/lib/env.server";
import {
  addressKey,
  clientOf,
  LIMITS,
  networkKey,
  rateLimitClient,
  SHOP_WIDE,
  SLOWDOWN,
  SUBJECT_SPREAD,
  UNKNOWN_CLIENT,
} from "~/lib/rate-limit.server";
import { checkAdminPassword } from "~/models/admin-access.server";
import { registerAccount, resendSignupCode, verifySignup } from "~/models/users/signup.server";
import { verifyLogin } from "~/models/users/login.server";
import { latestCode } from "../support/outbox";
import { getRequest } from "../support/requests";
import { newCustomer, PASSWORD } from "../support/orders";

beforeAll(async () => {
  await ready;
});

describe("rate limits", () => {
  it("hold one email to its limit, and the shop-wide ceiling holds a client that changes the email every time", async () => {
    const client = clientOf(getRequest("/contact"));
    for (let i = 0; i < LIMITS.contact.max; i++) await rateLimitClient(LIMITS.contact, client, "same@example.com");
    await expect(rateLimitClient(LIMITS.contact, client, "same@example.com")).rejects.toMatchObject({ status: 429 });

    const ceiling = SHOP_WIDE.contact.max;
    let refused = 0;
    for (let i = 0; i < ceiling + 5; i++) {
      try {
        await rateLimitClient(LIMITS.contact, client, `visitor-${i}@example.com`);
      } catch (error) {
        expect(error).toMatchObject({ status: 429, message: "Too many attempts. Please wait a while and try again." });
        refused++;
      }
    }
    // The five accepted calls above already counted against the ceiling (the refused sixth did
    // not reach it), so the last max + 5 of these are refused.
    expect(refused).toBe(LIMITS.contact.max + 5);
  });
});

/** The quarter-hour limits on verifying and resending codes start again, as after 15 minutes. */
async function passQuarterHour() {
  await db
    .deleteFrom("rateLimits")
    .where((eb) => eb.or([eb("key", "like", "otp-verify:%"), eb("key", "like", "otp-resend:%")]))
    .execute();
}

describe("guessing a code across resends", () => {
  it("a sign-up's codes take at most 30 tries a day per email, however many resends and quarter hours", async () => {
    const email = `day-cap-${Date.now()}@example.com`;
    const client = clientOf(getRequest("/api/user/auth/verifyOtp"));
    await registerAccount({ name: "Day Cap", email, mobile: null, password: PASSWORD }, client);
    let tries = 0;
    while (tries < LIMITS.otpVerifyDay.max) {
      // A quarter hour passes (its limit starts again) and the code is resent (its tries start again).
      await passQuarterHour();
      await resendSignupCode(email, null, client);
      for (let n = 0; n < 4 && tries < LIMITS.otpVerifyDay.max; n++, tries++) {
        await expect(verifySignup(email, "0000" === (await latestCode(email)) ? "0001" : "0000", null, client)).rejects.toMatchObject({
          status: 400,
        });
      }
    }
    await passQuarterHour();
    await resendSignupCode(email, null, client);
    // Even the right code: the email's tries for the day are used up.
    await expect(verifySignup(email, await latestCode(email), null, client)).rejects.toMatchObject({ status: 429 });
    expect(await db.selectFrom("users").select("id").where("email", "=", email).execute()).toEqual([]);
  });
});

describe("login attempts behind a trusted proxy", () => {
  it("are limited per client address too, whatever email each try names", async () => {
    const { env } = await import("~/lib/env.server");
    const trusted = env.TRUST_PROXY;
    env.TRUST_PROXY = true;
    try {
      const from = (ip: string) => clientOf(getRequest("/login", { "X-Forwarded-For": `10.9.9.9, ${ip}` }));
      for (let i = 0; i < LIMITS.login.perAddress; i++) await rateLimitClient(LIMITS.login, from("203.0.113.9"), `try-${i}@example.com`);
      await expect(rateLimitClient(LIMITS.login, from("203.0.113.9"), "fresh@example.com")).rejects.toMatchObject({ status: 429 });
      // Another address is not held by the first one's tries (no shop-wide lockout once addresses are known),
      // and the address is the right-most X-Forwarded-For entry: the one the proxy added.
      await expect(rateLimitClient(LIMITS.login, from("198.51.100.7"), "other@example.com")).resolves.toBeUndefined();
    } finally {
      env.TRUST_PROXY = trusted;
    }
  });
});

describe("strangers cannot lock a customer out by spending the email's tries", () => {
  /** 200, or the status a login try was refused with. */
  const loginAs = (email: string, password: string, ip: string) =>
    verifyLogin({ email, password }, { ip }).then(
      () => 200,
      (error: { status: number }) => error.status,
    );

  it("wrong passwords from one address: that address is refused; the customer, from theirs, logs in at once", async () => {
    const customer = await newCustomer("lockout-one");
    const saved = LIMITS.login.max;
    LIMITS.login.max = 3; // fewer (costly) hashes; the rule is the same
    try {
      for (let i = 0; i < LIMITS.login.max; i++) expect(await loginAs(customer.email, "guess-guess", "198.51.100.66")).toBe(401);
      expect(await loginAs(customer.email, PASSWORD, "198.51.100.66")).toBe(429);
      const started = Date.now();
      expect(await loginAs(customer.email, PASSWORD, "203.0.113.10")).toBe(200);
      expect(Date.now() - started).toBeLessThan(SLOWDOWN.ms);
    } finally {
      LIMITS.login.max = saved;
    }
  });

  it(`from ${SUBJECT_SPREAD} addresses and more: the customer logs in after a pause; a stranger past their share is refused`, async () => {
    const customer = await newCustomer("lockout-many");
    const saved = { max: LIMITS.login.max, pause: SLOWDOWN.ms };
    LIMITS.login.max = 2;
    SLOWDOWN.ms = 400; // a shorter pause, the same rule
    try {
      for (let a = 1; a <= SUBJECT_SPREAD; a++) {
        for (let i = 0; i < LIMITS.login.max; i++) expect(await loginAs(customer.email, "guess-guess", `198.51.100.${a}`)).toBe(401);
      }
      // The email's tries from all addresses are spent: a new stranger gets a pause per try and is
      // refused past the fair share; the customer's first try waits, then passes.
      const stranger = "198.51.100.99";
      for (let i = 0; i < SLOWDOWN.fairShare; i++) expect(await loginAs(customer.email, "guess-guess", stranger)).toBe(401);
      expect(await loginAs(customer.email, "guess-guess", stranger)).toBe(429);
      const started = Date.now();
      expect(await loginAs(customer.email, PASSWORD, "203.0.113.11")).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(SLOWDOWN.ms - 50);
    } finally {
      LIMITS.login.max = saved.max;
      SLOWDOWN.ms = saved.pause;
    }
  });

  it("wrong sign-up codes from one address do not stop the owner's right code from another", async () => {
    const email = `lockout-code-${Date.now()}@example.com`;
    const owner = { ip: "203.0.113.12" };
    const signup = await registerAccount({ name: "Code Owner", email, mobile: null, password: PASSWORD }, owner, { boundToBrowser: true });
    const code = await latestCode(email);
    const stranger = { ip: "198.51.100.70" };
    for (let i = 0; i < LIMITS.otpVerify.max; i++) {
      await expect(verifySignup(email, code === "0000" ? "0001" : "0000", null, stranger)).rejects.toMatchObject({ status: 400 });
    }
    await expect(verifySignup(email, "0000", null, stranger)).rejects.toMatchObject({ status: 429 });
    const user = await verifySignup(email, code, { handle: signup.attemptId, via: "browser" }, owner);
    expect(user.email).toBe(email);
  });
});

describe("keys a client cannot aim", () => {
  it("a login email naming another key (`victim:ip:<victim's address>`) spends nothing of the victim's", async () => {
    const customer = await newCustomer("key-aim");
    const home = { ip: "203.0.113.77" };
    const stranger = { ip: "198.51.100.77" };
    const status = (email: string, password: string, client: { ip: string }) =>
      verifyLogin({ email, password }, client).then(
        () => 200,
        (error: { status: number }) => error.status,
      );
    const saved = LIMITS.login.max;
    LIMITS.login.max = 3;
    try {
      // Before the fix the stranger's subject count (`login:s:{email}`) was the customer's own
      // count from home (`login:s:{customer}:ip:{home}`): three of these locked the customer out.
      const aimed = `${customer.email}:ip:${home.ip}`;
      for (let i = 0; i < LIMITS.login.max * 2; i++) expect([401, 429]).toContain(await status(aimed, "wrong-password", stranger));
      expect(await status(customer.email, PASSWORD, home)).toBe(200);
    } finally {
      LIMITS.login.max = saved;
    }
  });

  it("keys are short whatever the subject, and only an IP address becomes an address", async () => {
    await rateLimitClient(LIMITS.newsletter, { ip: "192.0.2.80" }, `${"x".repeat(5000)}@example.com`);
    const longest = await db
      .selectFrom("rateLimits")
      .select((eb) => eb.fn.max(eb.fn("length", ["key"])).as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(longest.n)).toBeLessThan(120);
    expect(addressKey("203.0.113.9:ip:198.51.100.1")).toBeNull();
    expect(addressKey("not an address")).toBeNull();
  });
});

describe("an IPv6 network spends a subject's tries as one address", () => {
  it("wrong passwords from many /64s of one /48: the limit's worth are checked, then 429; the owner elsewhere still logs in", async () => {
    const customer = await newCustomer("v6-48");
    const saved = { max: LIMITS.login.max, pause: SLOWDOWN.ms };
    LIMITS.login.max = 3;
    SLOWDOWN.ms = 0;
    try {
      const statuses: number[] = [];
      for (let n = 1; n <= 10; n++) {
        const client = { ip: addressKey(`2001:470:abcd:${n.toString(16)}::1`) };
        for (let i = 0; i < 2; i++) {
          statuses.push(
            await verifyLogin({ email: customer.email, password: "wrong-password" }, client).then(
              () => 200,
              (error: { status: number }) => error.status,
            ),
          );
        }
      }
      // Before: every /64 had its own three, and the fair share let two of each through: 20 checked.
      expect(statuses.filter((s) => s === 401)).toHaveLength(LIMITS.login.max);
      expect(statuses.filter((s) => s === 429)).toHaveLength(20 - LIMITS.login.max);
      await expect(verifyLogin({ email: customer.email, password: PASSWORD }, { ip: "203.0.113.99" })).resolves.toBeTruthy();
    } finally {
      LIMITS.login.max = saved.max;
      SLOWDOWN.ms = saved.pause;
    }
  });
});

describe("addressKey", () => {
  it("keeps IPv4, unwraps IPv4-mapped IPv6, and limits IPv6 by its /64", async () => {
    const { addressKey } = await import("~/lib/rate-limit.server");
    expect(addressKey("203.0.113.9")).toBe("203.0.113.9");
    expect(addressKey("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(addressKey("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8:1:2::1")).toBe(addressKey("2001:0db8:0001:0002:ffff::9"));
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("")).toBeNull();
    expect(addressKey(null)).toBeNull();
  });
});

describe("limits that count failures only", () => {
  it("a customer who knows the password is never locked out: successes do not count, and one resets the typos", async () => {
    const customer = await newCustomer("login-limit");
    const client = { ip: "203.0.113.50" };
    const tries = (password: string) =>
      verifyLogin({ email: customer.email, password }, client).then(
        () => 200,
        (error: { status: number }) => error.status,
      );
    // A smaller per-email limit than the shop's, so the test needs few (costly) hashes.
    const saved = LIMITS.login.max;
    LIMITS.login.max = 3;
    try {
      // More right logins than the limit allows tries.
      for (let i = 0; i < LIMITS.login.max + 2; i++) expect(await tries(PASSWORD)).toBe(200);
      // Typos up to one short of the limit, then the right password: the count starts again.
      for (let i = 0; i < LIMITS.login.max - 1; i++) expect(await tries("wrong-password")).toBe(401);
      expect(await tries(PASSWORD)).toBe(200);
      for (let i = 0; i < LIMITS.login.max - 1; i++) expect(await tries("wrong-password")).toBe(401);
      expect(await tries(PASSWORD)).toBe(200);
    } finally {
      LIMITS.login.max = saved;
    }
  });

  it("a burst of parallel Admin Access guesses from one address: only the limit's worth are even compared", async () => {
    const client = { ip: "203.0.113.60" };
    const answers = await Promise.all(
      Array.from({ length: 3 * LIMITS.adminLogin.max }, (_, i) =>
        checkAdminPassword(`guess-${i}`, client).then(
          () => 200,
          (error: { status: number }) => error.status,
        ),
      ),
    );
    expect(answers.filter((s) => s === 401)).toHaveLength(LIMITS.adminLogin.max);
    expect(answers.filter((s) => s === 429)).toHaveLength(2 * LIMITS.adminLogin.max);
  });

  it("the right Admin Access password does not count toward the limit", async () => {
    const client = { ip: "203.0.113.61" };
    for (let i = 0; i < LIMITS.adminLogin.max + 3; i++) await expect(checkAdminPassword(adminPassword(), client)).resolves.toBeUndefined();
  });
});

describe("shop-wide ceilings slow down; they do not lock everyone out", () => {
  it("once a few addresses used the ceiling up, they are refused while a new address passes after a pause", async () => {
    const saved = { max: SHOP_WIDE.signup.max, ...SLOWDOWN };
    SHOP_WIDE.signup.max = 6;
    SLOWDOWN.ms = 150;
    // Sign-ups made earlier in this file (test customers) counted toward the ceiling: start from none.
    await db.deleteFrom("rateLimits").where("key", "=", `${SHOP_WIDE.signup.name}:all`).execute();
    try {
      const heavy = [{ ip: "198.51.100.1" }, { ip: "198.51.100.2" }];
      for (const client of heavy) for (let i = 0; i < 3; i++) await rateLimitClient(LIMITS.signup, client, `${client.ip}-${i}@example.com`);
      // The ceiling is used up: the heavy addresses are refused...
      await expect(rateLimitClient(LIMITS.signup, heavy[0], "one-more@example.com")).rejects.toMatchObject({ status: 429 });
      // ...and a customer on another address still signs up, a little slower.
      const started = Date.now();
      await expect(rateLimitClient(LIMITS.signup, { ip: "192.0.2.44" }, "real-customer@example.com")).resolves.toBeUndefined();
      expect(Date.now() - started).toBeGreaterThanOrEqual(140);
      // A client with no known address is refused over the ceiling, as before.
      await expect(rateLimitClient(LIMITS.signup, UNKNOWN_CLIENT, "nobody@example.com")).rejects.toMatchObject({ status: 429 });
    } finally {
      SHOP_WIDE.signup.max = saved.max;
      Object.assign(SLOWDOWN, { ms: saved.ms, fairShare: saved.fairShare });
    }
  });

  it("an IPv6 client taking a new /64 for every try is held by its /48", async () => {
    const perAddress = LIMITS.newsletter.perAddress;
    let accepted = 0;
    for (let i = 0; i < perAddress * 6; i++) {
      const client = { ip: addressKey(`2001:db8:77:${(i + 1).toString(16)}::1`) };
      try {
        await rateLimitClient(LIMITS.newsletter, client, `v6-${i}@example.com`);
        accepted++;
      } catch (error) {
        expect(error).toMatchObject({ status: 429 });
      }
    }
    expect(accepted).toBe(perAddress * 4);
    expect(networkKey("2001:db8:77:1::/64")).toBe("2001:db8:77::/48");
    expect(networkKey("203.0.113.9")).toBeNull();
  });

  it("RATE_LIMIT_CEILINGS sets the ceilings; a name that is no ceiling, or a malformed list, stops the boot", () => {
    expect(parseEnv({ RATE_LIMIT_CEILINGS: "signup=1000, password-reset=50" }).RATE_LIMIT_CEILINGS).toEqual({
      signup: 1000,
      "password-reset": 50,
    });
    expect(parseEnv({}).RATE_LIMIT_CEILINGS).toEqual({});
    expect(() => parseEnv({ RATE_LIMIT_CEILINGS: "signup=lots" })).toThrow(/RATE_LIMIT_CEILINGS/);
  });
});
