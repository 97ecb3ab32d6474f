import { describe, expect, it } from "vitest";
import { parseEnv, StartupError } from "./env.server";

describe("parseEnv", () => {
  it("gives the documented defaults for an empty environment", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.DATABASE_URL).toBe("file:./data/shop.db");
    expect(env.MAIL_DIR).toBe("./data/mail");
    expect(env.SEED).toBe("demo");
    expect(env.NODE_ENV).toBe("development");
    expect(env.HOST).toBeUndefined();
    expect(env.SMTP_URL).toBeUndefined();
    expect(env.SESSION_SECRET).toBeUndefined();
    expect(env.RAZORPAY_KEY_ID).toBeUndefined();
    expect(env.RAZORPAY_KEY_SECRET).toBeUndefined();
    expect(env.TRUST_PROXY).toBe(false);
  });

  it("treats empty and blank strings as unset", () => {
    const env = parseEnv({
      PORT: "",
      DATABASE_URL: "",
      MAIL_DIR: "  ",
      SEED: "",
      SMTP_URL: "",
      RAZORPAY_KEY_ID: "",
      RAZORPAY_KEY_SECRET: " ",
      SESSION_SECRET: "",
      HOST: "",
      NODE_ENV: "",
    });
    expect(env.PORT).toBe(3000);
    expect(env.DATABASE_URL).toBe("file:./data/shop.db");
    expect(env.MAIL_DIR).toBe("./data/mail");
    expect(env.SEED).toBe("demo");
    expect(env.SMTP_URL).toBeUndefined();
    expect(env.RAZORPAY_KEY_ID).toBeUndefined();
    expect(env.SESSION_SECRET).toBeUndefined();
    expect(env.HOST).toBeUndefined();
    expect(env.NODE_ENV).toBe("development");
  });

  it("reads given values", () => {
    const env = parseEnv({
      PORT: "8080",
      HOST: "127.0.0.1",
      DATABASE_URL: "postgres://shop@localhost/shop",
      MAIL_DIR: "/tmp/mail",
      SEED: "none",
      SMTP_URL: "smtp://u:p@localhost:2525",
      RAZORPAY_KEY_ID: "rzp_test_x",
      RAZORPAY_KEY_SECRET: "secret",
      TRUST_PROXY: "1",
      NODE_ENV: "production",
    });
    expect(env).toMatchObject({
      PORT: 8080,
      HOST: "127.0.0.1",
      DATABASE_URL: "postgres://shop@localhost/shop",
      MAIL_DIR: "/tmp/mail",
      SEED: "none",
      SMTP_URL: "smtp://u:p@localhost:2525",
      RAZORPAY_KEY_ID: "rzp_test_x",
      RAZORPAY_KEY_SECRET: "secret",
      TRUST_PROXY: true,
      NODE_ENV: "production",
    });
  });

  it.each(["abc", "0", "70000", "-1", "80.5"])("refuses PORT=%s with a message naming PORT", (port) => {
    expect(() => parseEnv({ PORT: port })).toThrow(/^Invalid environment: .*PORT/);
  });

  it("refuses an unknown SEED and a non-smtp SMTP_URL with clear messages", () => {
    expect(() => parseEnv({ SEED: "all" })).toThrow(/Invalid environment: .*SEED/);
    expect(() => parseEnv({ SMTP_URL: "http://mail" })).toThrow(/SMTP_URL must start with smtp:\/\/ or smtps:\/\//);
    expect(() => parseEnv({ SESSION_SECRET: "short" })).toThrow(/SESSION_SECRET must be at least 16 characters/);
  });

  it("refuses only one of the two Razorpay keys", () => {
    expect(() => parseEnv({ RAZORPAY_KEY_ID: "rzp_test_x" })).toThrow(/RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET/);
    expect(() => parseEnv({ RAZORPAY_KEY_SECRET: "secret" })).toThrow(/RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET/);
    expect(() => parseEnv({ RAZORPAY_KEY_ID: "rzp_test_x", RAZORPAY_KEY_SECRET: "" })).toThrow(/RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET/);
  });

  it("reads the secrets' variables: each key of SESSION_SECRET 16 characters or more, the others 32; a StartupError", () => {
    const env = parseEnv({
      SESSION_SECRET: "new-session-key-0123, old-session-key-0123",
      ONE_TIME_CODE_SECRET: "c".repeat(32),
      TEST_GATEWAY_SECRET: "g".repeat(32),
      TEST_GATEWAY_WEBHOOK_SECRET: "w".repeat(40),
    });
    expect(env).toMatchObject({ ONE_TIME_CODE_SECRET: "c".repeat(32), TEST_GATEWAY_SECRET: "g".repeat(32), SECRETS_ACCEPT_NEW: [] });
    expect(env.TEST_GATEWAY_WEBHOOK_SECRET).toBe("w".repeat(40));
    const blank = parseEnv({ ONE_TIME_CODE_SECRET: " ", TEST_GATEWAY_SECRET: "", TEST_GATEWAY_WEBHOOK_SECRET: "" });
    expect([blank.ONE_TIME_CODE_SECRET, blank.TEST_GATEWAY_SECRET, blank.TEST_GATEWAY_WEBHOOK_SECRET]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(() => parseEnv({ SESSION_SECRET: "long-enough-session-key,short" })).toThrow(
      /each key in SESSION_SECRET must be at least 16 characters/,
    );
    for (const name of ["ONE_TIME_CODE_SECRET", "TEST_GATEWAY_SECRET", "TEST_GATEWAY_WEBHOOK_SECRET"]) {
      expect(() => parseEnv({ [name]: "x".repeat(31) })).toThrow(
        new RegExp(`^Invalid environment: ${name}: ${name} must be at least 32 characters$`),
      );
    }
    expect(() => parseEnv({ ONE_TIME_CODE_SECRET: "short" })).toThrow(StartupError);
    expect(() => parseEnv({ ONE_TIME_CODE_SECRET: "short-and-secret" })).not.toThrow(/short-and-secret/);
  });

  it("reads SECRETS_ACCEPT_NEW (codes naming values), SHUTDOWN_TIMEOUT_MS (10 s unless set, 0 to 600,000 ms), SHUTDOWN_DELAY_MS", () => {
    expect(parseEnv({ SECRETS_ACCEPT_NEW: "3kP_x9Qa2LmZ" }).SECRETS_ACCEPT_NEW).toEqual(["3kP_x9Qa2LmZ"]);
    expect(parseEnv({ SECRETS_ACCEPT_NEW: " 3kP_x9Qa2LmZ, aaaaaaaaaaa- " }).SECRETS_ACCEPT_NEW).toEqual(["3kP_x9Qa2LmZ", "aaaaaaaaaaa-"]);
    expect(parseEnv({}).SECRETS_ACCEPT_NEW).toEqual([]);
    expect(parseEnv({ SECRETS_ACCEPT_NEW: "0" }).SECRETS_ACCEPT_NEW).toEqual([]);
    for (const bad of ["1", "yes", "3kP_x9Qa2LmZ,1"])
      expect(() => parseEnv({ SECRETS_ACCEPT_NEW: bad })).toThrow(/SECRETS_ACCEPT_NEW must be the code/);
    expect(parseEnv({}).SHUTDOWN_DELAY_MS).toBe(0);
    expect(parseEnv({ SHUTDOWN_DELAY_MS: "5000" }).SHUTDOWN_DELAY_MS).toBe(5000);
    expect(() => parseEnv({ SHUTDOWN_DELAY_MS: "-5" })).toThrow(/SHUTDOWN_DELAY_MS/);
    expect(parseEnv({}).SHUTDOWN_TIMEOUT_MS).toBe(10_000);
    expect(parseEnv({ SHUTDOWN_TIMEOUT_MS: "2500" }).SHUTDOWN_TIMEOUT_MS).toBe(2500);
    expect(parseEnv({ SHUTDOWN_TIMEOUT_MS: "0" }).SHUTDOWN_TIMEOUT_MS).toBe(0);
    for (const bad of ["-1", "1.5", "600001", "soon"]) expect(() => parseEnv({ SHUTDOWN_TIMEOUT_MS: bad })).toThrow(/SHUTDOWN_TIMEOUT_MS/);
  });

  it("reads TRUST_PROXY as off, one proxy, or a list of proxy addresses; refuses anything else", () => {
    for (const off of ["0", "false", ""]) expect(parseEnv({ TRUST_PROXY: off }).TRUST_PROXY).toBe(false);
    for (const on of ["1", "true", "loopback", "10.0.0.0/8, 192.168.1.5", "::1,fd00::/8,uniquelocal"]) {
      expect(parseEnv({ TRUST_PROXY: on }).TRUST_PROXY).toBe(true);
    }
    for (const bad of ["yes", "2", "10.0.0.0/33", "10.0.0/8", "loopback,", "proxy.example", "::1/129"]) {
      expect(() => parseEnv({ TRUST_PROXY: bad })).toThrow(/TRUST_PROXY: must be 0, 1, or a comma-separated list/);
    }
  });

  it("reads the backup settings: none scheduled by default; a schedule needs its folder; whole hours and counts only", () => {
    const defaults = parseEnv({});
    expect([defaults.BACKUP_DIR, defaults.BACKUP_EVERY_HOURS, defaults.BACKUP_KEEP_DAILY, defaults.BACKUP_KEEP_WEEKLY]).toEqual([
      undefined,
      undefined,
      7,
      4,
    ]);
    const set = { BACKUP_DIR: "/var/backups/shop", BACKUP_EVERY_HOURS: "6", BACKUP_KEEP_DAILY: "14", BACKUP_KEEP_WEEKLY: "0" };
    expect(parseEnv(set)).toMatchObject({
      BACKUP_DIR: "/var/backups/shop",
      BACKUP_EVERY_HOURS: 6,
      BACKUP_KEEP_DAILY: 14,
      BACKUP_KEEP_WEEKLY: 0,
    });
    expect(() => parseEnv({ BACKUP_EVERY_HOURS: "24" })).toThrow(/^Invalid environment: BACKUP_EVERY_HOURS needs BACKUP_DIR/);
    for (const bad of ["0", "1.5", "169", "daily"]) {
      expect(() => parseEnv({ BACKUP_DIR: "/b", BACKUP_EVERY_HOURS: bad })).toThrow(/BACKUP_EVERY_HOURS/);
    }
    expect(() => parseEnv({ BACKUP_KEEP_DAILY: "0" })).toThrow(/BACKUP_KEEP_DAILY/);
    expect(() => parseEnv({ BACKUP_KEEP_WEEKLY: "-1" })).toThrow(/BACKUP_KEEP_WEEKLY/);
  });
});
