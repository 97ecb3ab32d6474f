// Admin Access: does a password typed into the hidden dialog open the admin area? The limit,
// the comparison and the counting of failures in one place; turning the session's admin flag
// on is the caller's (web/sign-in.server's grantAdmin).
import { adminPassword, isAdminPassword } from "~/lib/admin-password.server";
import { AppError } from "~/lib/errors.server";
import type { Client } from "~/lib/rate-limit.server";
import { forgiveTry, LIMITS, rateLimitClient, SHOP_WIDE } from "~/lib/rate-limit.server";
import { env } from "~/lib/env.server";
import { ADMIN_PASSWORD_LOGIN_OFF, INVALID_PASSWORD, NOT_CONFIGURED_MESSAGE } from "~/utils/admin-access";

/** Longer than any password anyone types: not even hashed. */
const MAX_PASSWORD_LENGTH = 1000;

/**
 * Check an Admin Access password (the built-in owner's sign-in): 403 when the shop turned it off
 * (ADMIN_PASSWORD_LOGIN=off) or it is not configured on this server, 429 while the
 * client (or the shop as a whole) has used up its tries, 401 for a wrong or missing password.
 * Only wrong passwords count toward the limit: every try is counted before the password is
 * compared (so parallel guesses cannot all slip past a count read first) and the right one is
 * given back. The right one is refused too while the limit holds.
 */
export async function checkAdminPassword(password: unknown, client: Client): Promise<void> {
  if (!env.ADMIN_PASSWORD_LOGIN) throw new AppError(403, ADMIN_PASSWORD_LOGIN_OFF);
  if (adminPassword() === null) throw new AppError(403, NOT_CONFIGURED_MESSAGE);
  // An address of its own is held to its ten; clients of unknown address (no trusted proxy)
  // are told apart by nothing, so together they get the shop-wide figure.
  const subject = client.ip ?? "unknown-address";
  const limit = client.ip ? LIMITS.adminLogin : { ...LIMITS.adminLogin, max: SHOP_WIDE["admin-login"]!.max };
  await rateLimitClient(limit, client, subject);
  if (typeof password !== "string" || password.length > MAX_PASSWORD_LENGTH || !isAdminPassword(password)) {
    throw new AppError(401, INVALID_PASSWORD);
  }
  await forgiveTry(limit, client, subject);
}
