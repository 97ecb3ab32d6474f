// The back-office's customers: the paged list, and adding, editing and deleting accounts.
import type { ListPage, RowWindow } from "~/lib/paging.server";
import type { Db } from "~/lib/db.server";
import {
  containsText,
  db as defaultDb,
  dbNowValue,
  isForeignKeyViolation,
  isPostgres,
  isUniqueViolation,
  nowIso,
  toCount,
} from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import { endResetTokens } from "~/lib/one-time-codes.server";
import type { AdminListQuery } from "~/utils/admin-schemas";
import type { ProfileInput } from "~/utils/account-schemas";
import { MESSAGES } from "~/utils/account-schemas";
import { changed, diffDetails, recordAudit, rowDetails } from "~/models/audit.server";
import type { Actor } from "~/models/staff/staff.server";
import type { User } from "./users.server";
import { saveUserDetails } from "./profile.server";
import { findByEmail, toUser } from "./users.server";

export type AdminUser = User & { createdAt: string; orderCount: number; canLogIn: boolean };

/** Accounts only: a sign-up still waiting for its code is not a user yet. */
function accounts(db: Db) {
  return db.selectFrom("users").where("emailVerifiedAt", "is not", null);
}

export async function listUsersPage(query: Pick<AdminListQuery, "q">, window: RowWindow, db: Db = defaultDb): Promise<ListPage<AdminUser>> {
  let base = accounts(db);
  if (query.q) {
    base = base.where((eb) =>
      eb.or([containsText("users.name", query.q), containsText("users.email", query.q), containsText("users.mobile", query.q)]),
    );
  }
  const { count } = await base.select((eb) => eb.fn.countAll().as("count")).executeTakeFirstOrThrow();
  const total = toCount(count);
  const rows = await base
    .select(["users.id", "users.name", "users.email", "users.mobile", "users.createdAt", "users.passwordHash"])
    .select((eb) =>
      eb
        .selectFrom("orders")
        .select((e) => e.fn.countAll().as("n"))
        .whereRef("orders.userId", "=", "users.id")
        .as("orderCount"),
    )
    .orderBy("users.id", "desc")
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  return {
    rows: rows.map((r) => ({ ...toUser(r), createdAt: r.createdAt, orderCount: toCount(r.orderCount), canLogIn: r.passwordHash !== null })),
    total,
  };
}

/** GET /api/user/list: one page of the accounts as plain users, newest first, and how many there are in all. */
export async function listAccountsPage(window: RowWindow, db: Db = defaultDb): Promise<ListPage<User>> {
  const { n } = await accounts(db)
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  const total = toCount(n);
  if (window.offset >= total) return { rows: [], total };
  const rows = await accounts(db)
    .select(["id", "name", "email", "mobile"])
    .orderBy("id", "desc")
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  return { rows: rows.map(toUser), total };
}

export async function getUserForAdmin(id: number, db: Db = defaultDb): Promise<User | null> {
  const row = await accounts(db).select(["id", "name", "email", "mobile"]).where("id", "=", id).executeTakeFirst();
  return row ? toUser(row) : null;
}

/**
 * An account made by the shop (a phone or showroom customer). It has no password: the
 * customer sets one through 'Forgot password' with the email given here.
 */
export async function createUserByAdmin(input: ProfileInput, actor: Actor, db: Db = defaultDb): Promise<User> {
  if (await findByEmail(input.email, db)) throw new AppError(409, MESSAGES.emailInUse, { fieldErrors: { email: MESSAGES.emailInUse } });
  try {
    return await db.transaction().execute(async (trx) => {
      const now = nowIso();
      const row = await trx
        .insertInto("users")
        .values({
          name: input.name,
          email: input.email,
          mobile: input.mobile,
          passwordHash: null,
          emailVerifiedAt: now,
          createdAt: now,
          updatedAt: now,
        })
        .returning(["id", "name", "email", "mobile"])
        .executeTakeFirstOrThrow();
      await recordAudit(trx, {
        action: "create",
        entity: "user",
        entityId: row.id,
        summary: `Created user ${row.name} <${row.email}>`,
        actor,
        details: rowDetails(row, ["name", "email", "mobile"]),
      });
      return toUser(row);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(409, MESSAGES.emailInUse, { fieldErrors: { email: MESSAGES.emailInUse } });
    throw error;
  }
}

export async function updateUserByAdmin(id: number, input: ProfileInput, actor: Actor, db: Db = defaultDb): Promise<User> {
  if (!(await getUserForAdmin(id, db))) throw new AppError(404, "User Not Found");
  return saveUserDetails(
    id,
    input,
    {
      missing: new AppError(404, "User Not Found"),
      audit: (trx, before) =>
        recordAudit(trx, {
          action: "update",
          entity: "user",
          entityId: id,
          summary: `Edited user ${input.name} <${input.email}>${changed(before, { id, ...input }, ["name", "email", "mobile"])}`,
          actor,
          details: diffDetails(before, { id, ...input }, ["name", "email", "mobile"]),
        }),
    },
    db,
  );
}

export const USER_HAS_ORDERS = (n: number) =>
  `This user has ${n} order${n === 1 ? "" : "s"} and cannot be deleted: the shop must keep its order records.`;

export const USER_HAS_PAYMENT =
  "This user has a payment that has not become an order yet (paid, or being paid right now) and cannot be deleted: " +
  "the payment must become an order or be refunded first. Try again later.";

/** A write for the user (an order, a payment) committed while the delete ran: the foreign key refused the delete. */
export const USER_BUSY = "This user placed an order or started a payment just now and cannot be deleted. Reload the page to see it.";

/**
 * Deletes the account with its sessions, tokens, cart and wishlist; never one with orders, nor one
 * with a payment still on its way to an order: paid with no order yet, or being paid (a stock hold
 * still live). Such a payment's row would lose its customer (user_id is SET NULL) and could then
 * neither become an order nor be offered for a refund.
 */
export async function deleteUserByAdmin(id: number, actor: Actor, db: Db = defaultDb): Promise<void> {
  try {
    await db.transaction().execute(async (trx) => {
      // The customer's cart row, then the user's, both locked (PostgreSQL; SQLite has one writer):
      // placeOrder and createPaymentOrder lock the cart first and then insert a row pointing at the
      // user, so the same order here never deadlocks with them; either they commit first and the
      // checks below (later statements) see what they wrote, or they find the cart gone.
      const cart = trx.selectFrom("carts").select("id").where("userId", "=", id);
      await (isPostgres(trx) ? cart.forUpdate() : cart).execute();
      const user = trx.selectFrom("users").select(["id", "name", "email"]).where("id", "=", id).where("emailVerifiedAt", "is not", null);
      const row = await (isPostgres(trx) ? user.forUpdate() : user).executeTakeFirst();
      if (!row) throw new AppError(404, "User Not Found");
      const { n } = await trx
        .selectFrom("orders")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("userId", "=", id)
        .executeTakeFirstOrThrow();
      if (toCount(n) > 0) throw new AppError(409, USER_HAS_ORDERS(toCount(n)));
      const now = dbNowValue(trx);
      const payment = await trx
        .selectFrom("paymentOrders")
        .select("id")
        .where("userId", "=", id)
        .where("orderId", "is", null)
        .where((eb) =>
          eb.or([
            eb("status", "=", "paid"),
            eb.and([
              eb("status", "=", "created"),
              eb.exists(
                eb
                  .selectFrom("stockReservations")
                  .select("stockReservations.itemId")
                  .whereRef("stockReservations.paymentOrderId", "=", "paymentOrders.id")
                  .where("stockReservations.expiresAt", ">", now),
              ),
            ]),
          ]),
        )
        .executeTakeFirst();
      if (payment) throw new AppError(409, USER_HAS_PAYMENT);
      await trx.deleteFrom("users").where("id", "=", id).execute();
      // Reset links still out for the address would otherwise outlive the account.
      await endResetTokens(trx, row.email);
      await recordAudit(trx, { action: "delete", entity: "user", entityId: id, summary: `Deleted user ${row.name} <${row.email}>`, actor });
    });
  } catch (error) {
    if (isForeignKeyViolation(error)) throw new AppError(409, USER_BUSY);
    throw error;
  }
}
