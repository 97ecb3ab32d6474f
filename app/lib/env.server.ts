// The typed environment, checked once at boot. Every variable is optional (.env.example, docs/api.md).
import { z } from "zod";
import { metricsAllowList } from "./metrics-access";
import { proxyTrustSetting } from "./proxy-trust";

const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), schema);

const EnvSchema = z.object({
  NODE_ENV: optional(z.enum(["development", "production", "test"]).default("development")),
  PORT: optional(z.coerce.number().int().min(1).max(65535).default(3000)),
  HOST: optional(z.string().optional()),
  DATABASE_URL: optional(z.string().default("file:./data/shop.db")),
  DATA_DIR: optional(z.string().default("./data")),
  /** one key, or a comma-separated list: the first signs, every one is accepted (rotation, docs/api.md) */
  SESSION_SECRET: optional(
    z
      .string()
      .min(16, "SESSION_SECRET must be at least 16 characters")
      .refine((v) => v.split(",").every((key) => key.trim().length >= 16), "each key in SESSION_SECRET must be at least 16 characters")
      .optional(),
  ),
  /** the key sign-up codes, email-change codes and reset links are hashed with (app/lib/one-time-codes.server.ts) */
  ONE_TIME_CODE_SECRET: optional(z.string().min(32, "ONE_TIME_CODE_SECRET must be at least 32 characters").optional()),
  /** the offline test gateway's key secret and webhook secret (used only while Razorpay's keys are unset) */
  TEST_GATEWAY_SECRET: optional(z.string().min(32, "TEST_GATEWAY_SECRET must be at least 32 characters").optional()),
  TEST_GATEWAY_WEBHOOK_SECRET: optional(z.string().min(32, "TEST_GATEWAY_WEBHOOK_SECRET must be at least 32 characters").optional()),
  /**
   * The new values this start may record as the ones every server must use (after a deliberate change,
   * app/lib/secrets.server.ts): a comma-separated list of the codes a refusal prints, each naming one value.
   */
  SECRETS_ACCEPT_NEW: optional(
    z
      .string()
      .transform((v) => (v.trim() === "0" ? "" : v))
      .refine(
        (v) => v === "" || /^\s*[\w-]{12}\s*(,\s*[\w-]{12}\s*)*$/.test(v),
        "SECRETS_ACCEPT_NEW must be the code(s) the refusal to start printed, e.g. 3kP_x9Qa2LmZ",
      )
      .optional()
      .transform((v) =>
        (v ?? "")
          .split(",")
          .map((code) => code.trim())
          .filter(Boolean),
      ),
  ),
  /** how long a stopping server lets its in-flight requests finish (server/shutdown.ts) */
  SHUTDOWN_TIMEOUT_MS: optional(z.coerce.number().int().min(0).max(600_000).default(10_000)),
  /** how long a stopping server keeps serving while /readyz already answers 503 (server/shutdown.ts) */
  SHUTDOWN_DELAY_MS: optional(z.coerce.number().int().min(0).max(600_000).default(0)),
  ADMIN_PASSWORD: optional(z.string().min(1).optional()),
  /**
   * "off" turns off signing in with ADMIN_PASSWORD alone (the built-in owner), once the shop has a
   * real owner account (docs/decisions/0033); staff accounts are unaffected
   */
  ADMIN_PASSWORD_LOGIN: optional(z.enum(["on", "off"]).default("on")).transform((v) => v !== "off"),
  MAIL_DIR: optional(z.string().default("./data/mail")),
  SMTP_URL: optional(
    z
      .string()
      .regex(/^smtps?:\/\//, "SMTP_URL must start with smtp:// or smtps://")
      .optional(),
  ),
  MAIL_FROM: optional(z.string().default("Sagwan Living <no-reply@sagwanliving.in>")),
  SHOP_EMAIL: optional(z.string().email().default("support@sagwanliving.in")),
  RAZORPAY_KEY_ID: optional(z.string().optional()),
  RAZORPAY_KEY_SECRET: optional(z.string().optional()),
  RAZORPAY_WEBHOOK_SECRET: optional(z.string().min(8, "RAZORPAY_WEBHOOK_SECRET must be at least 8 characters").optional()),
  SHOP_GSTIN: optional(
    z
      .string()
      .regex(/^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/, "SHOP_GSTIN must be a 15-character GSTIN")
      .optional(),
  ),
  SHOP_STATE: optional(z.string().default("Gujarat")),
  /** how long creating a payment order holds its units for the customer (ADR 0023), in minutes */
  RESERVATION_MINUTES: optional(z.coerce.number().int().min(1).max(1440).default(15)),
  /** demo: the demo catalogue on a database's first start; large: it plus generated products up to 100,000; none: nothing */
  SEED: optional(z.enum(["demo", "large", "none"]).default("demo")),
  /** 1 (default): a seeded demo catalogue gets a few generated product photos (db/seed-photos.server.ts); 0: none */
  SEED_PHOTOS: optional(z.enum(["0", "1"]).default("1")).transform((v) => v === "1"),
  /** where uploaded images live: disk (DATA_DIR/uploads) or database; unset: disk on SQLite, database on PostgreSQL */
  IMAGE_STORE: optional(z.enum(["disk", "database"]).optional()),
  PUBLIC_URL: optional(z.string().url("PUBLIC_URL must be a URL like https://shop.example.in").optional()),
  /** shop-wide ceilings by name, e.g. "signup=300,password-reset=200" (app/lib/rate-limit.server.ts) */
  RATE_LIMIT_CEILINGS: optional(
    z
      .string()
      .regex(/^\s*[a-z-]+=\d{1,7}\s*(,\s*[a-z-]+=\d{1,7}\s*)*$/, "RATE_LIMIT_CEILINGS must look like signup=300,password-reset=200")
      .default("")
      .transform((v) =>
        Object.fromEntries(
          v
            .split(",")
            .filter((p) => p.trim())
            .map((p) => p.split("=").map((x) => x.trim()))
            .map(([k, n]) => [k, Number(n)]),
        ),
      ),
  ),
  /** where `npm run backup` and the scheduled backups write their files (app/lib/backup/backup.server.ts) */
  BACKUP_DIR: optional(z.string().optional()),
  /** hours between scheduled backups, taken by one server at a time (the "backup" lease); unset: none are scheduled */
  BACKUP_EVERY_HOURS: optional(z.coerce.number().int("BACKUP_EVERY_HOURS must be a whole number of hours").min(1).max(168).optional()),
  /** how many days' newest backups the schedule keeps in BACKUP_DIR, and how many weeks' */
  BACKUP_KEEP_DAILY: optional(z.coerce.number().int().min(1).max(366).default(7)),
  BACKUP_KEEP_WEEKLY: optional(z.coerce.number().int().min(0).max(520).default(4)),
  /** 1 (default): this server runs the mail outbox's worker and housekeeping; 0: `npm run worker` runs them elsewhere */
  MAIL_WORKER: optional(z.enum(["0", "1"]).default("1")).transform((v) => v === "1"),
  /** Whether any proxy is trusted; server/index.ts reads which (app/lib/proxy-trust.ts). */
  TRUST_PROXY: optional(
    z
      .string()
      .default("0")
      .refine((v) => proxyTrustSetting(v) !== null, {
        message: 'must be 0, 1, or a comma-separated list of proxy addresses, CIDR ranges, "loopback", "linklocal" or "uniquelocal"',
      })
      .transform((v) => proxyTrustSetting(v) !== false),
  ),
  /** a bearer token that may read GET /metrics from any address (server/metrics.ts); unset: only METRICS_ALLOW's addresses */
  METRICS_TOKEN: optional(z.string().min(32, "METRICS_TOKEN must be at least 32 characters").optional()),
  /** addresses that may read GET /metrics without the token; server/metrics.ts reads them (app/lib/metrics-access.ts) */
  METRICS_ALLOW: optional(
    z
      .string()
      .default("loopback")
      .refine((v) => metricsAllowList(v) !== null, {
        message: 'must be "none" or a comma-separated list of addresses, CIDR ranges, "loopback", "linklocal" or "uniquelocal"',
      }),
  ),
  /** `npm run worker` only: the port its GET /metrics listens on (server/worker.ts); unset: it serves no HTTP */
  METRICS_PORT: optional(z.coerce.number().int("METRICS_PORT must be a port number").min(1).max(65535).optional()),
  /** the least level the log writes in production (app/lib/log.server.ts) */
  LOG_LEVEL: optional(z.enum(["debug", "info", "warn", "error"]).default("info")),
});

export type Env = z.output<typeof EnvSchema>;

/**
 * A reason the server will not start (a bad variable, a secret the other servers do not share,
 * migrations newer than the code): server/import-build.ts prints its message alone, without a stack.
 */
export class StartupError extends Error {
  override name = "StartupError";
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = EnvSchema.safeParse(source);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new StartupError(`Invalid environment: ${problems}`);
  }
  const env = result.data;
  if (env.BACKUP_EVERY_HOURS !== undefined && !env.BACKUP_DIR) {
    throw new StartupError("Invalid environment: BACKUP_EVERY_HOURS needs BACKUP_DIR, the folder the scheduled backups are written to");
  }
  if (Boolean(env.RAZORPAY_KEY_ID) !== Boolean(env.RAZORPAY_KEY_SECRET)) {
    throw new StartupError("Invalid environment: set both RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET, or neither");
  }
  return env;
}

export const env: Env = parseEnv(process.env);
export const isProduction = env.NODE_ENV === "production";
