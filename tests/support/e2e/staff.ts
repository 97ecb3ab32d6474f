// Staff accounts for the browser tests: one written into the SQLite database of npm test's server
// (as tests/e2e/mail-outbox.spec.ts writes its rows), with a password hashed as the app hashes it
// and, when asked, a two-step secret the test keeps, so it can type the code an authenticator app
// would show. The cluster run's database is PostgreSQL behind its servers: specs using this skip there.
import path from "node:path";
import Database from "better-sqlite3";
import { generate, generateSecret } from "otplib";
import { hashPassword } from "../../../app/lib/password.server";

export const ON_CLUSTER = process.env.E2E_TARGET === "cluster";

export interface E2EStaff {
  id: number;
  name: string;
  email: string;
  password: string;
  totpSecret: string | null;
}

let made = 0;

/** A new active staff account of `role` (`twoStep`: with a two-step secret set up). */
export async function seedStaff(role: "owner" | "manager" | "fulfilment" | "support", tag: string, twoStep: boolean): Promise<E2EStaff> {
  made++;
  const email = `staff-${role}-${tag}-${made}@example.com`.toLowerCase();
  const password = `Staff-pass-${tag}`;
  const name = `E2E ${role} ${made}`;
  const totpSecret = twoStep ? generateSecret() : null;
  const passwordHash = await hashPassword(password);
  const db = new Database(path.join(process.env.E2E_DATA_DIR!, "shop.db"));
  try {
    db.pragma("busy_timeout = 5000");
    const row = db
      .prepare(
        `insert into staff (name, email, role, password_hash, active, two_step_required, totp_secret, created_at)
         values (?, ?, ?, ?, 1, 0, ?, ?) returning id`,
      )
      .get(name, email, role, passwordHash, totpSecret, new Date().toISOString()) as { id: number };
    return { id: row.id, name, email, password, totpSecret };
  } finally {
    db.close();
  }
}

/** The code an authenticator app shows now for `secret` (RFC 6238: 6 digits, 30-second steps). */
export function currentCode(secret: string): Promise<string> {
  return generate({ secret, period: 30, digits: 6 });
}
