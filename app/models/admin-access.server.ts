// Admin Access: does a password typed into the hidden dialog open the admin area? The limit,
// the comparison and the counting of failures in one place; turning the session's admin flag
// on is the caller's (web/admin.server's grantAdmin).
import { adminPassword, isAdminPassword } from "~/lib/admin-password.server";
import { AppError } from "~/lib/errors.server";
import type { Client } from "~/lib/rate-limit.server";
import { assertUnderLimit, LIMITS, rateLimitClient } from "~/lib/rate-limit.server";
import { INVALID_PASSWORD, NOT_CONFIGURED_MESSAGE } from "~/utils/admin-access";

/** Longer than any password anyone types: not even hashed. */
const MAX_PASSWORD_LENGTH = 1000;

/**
 * Check an Admin Access password: 403 when admin access is off on this server, 429 while the
 * client (or the shop as a whole) has used up its tries, 401 for a wrong or missing password.
 * Only wrong passwords count toward the limit, so nobody can lock the admin out by spending
 * the tries; the right one is refused too while the limit holds.
 */
export async function checkAdminPassword(password: unknown, client: Client): Promise<void> {
  if (adminPassword() === null) throw new AppError(403, NOT_CONFIGURED_MESSAGE);
  await assertUnderLimit(LIMITS.adminLogin, client, "admin");
  if (typeof password !== "string" || password.length > MAX_PASSWORD_LENGTH || !isAdminPassword(password)) {
    await rateLimitClient(LIMITS.adminLogin, client, "admin");
    throw new AppError(401, INVALID_PASSWORD);
  }
}
