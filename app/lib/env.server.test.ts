import { describe, expect, it } from "vitest";
import { parseEnv } from "./env.server";

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

  it("reads TRUST_PROXY as off, one proxy, or a list of proxy addresses; refuses anything else", () => {
    for (const off of ["0", "false", ""]) expect(parseEnv({ TRUST_PROXY: off }).TRUST_PROXY).toBe(false);
    for (const on of ["1", "true", "loopback", "10.0.0.0/8, 192.168.1.5", "::1,fd00::/8,uniquelocal"]) {
      expect(parseEnv({ TRUST_PROXY: on }).TRUST_PROXY).toBe(true);
    }
    for (const bad of ["yes", "2", "10.0.0.0/33", "10.0.0/8", "loopback,", "proxy.example", "::1/129"]) {
      expect(() => parseEnv({ TRUST_PROXY: bad })).toThrow(/TRUST_PROXY: must be 0, 1, or a comma-separated list/);
    }
  });
});
