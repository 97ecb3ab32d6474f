// The orders a viewer may see (a customer: their own; the shop: every order), newest first: a
// page of them (GET /api/orders and the customer's /orders page), and the latest address.
import type { Db } from "~/lib/db.server";
import { db as defaultDb, toCount } from "~/lib/db.server";
import type { ListPage, RowWindow } from "~/lib/paging.server";
import type { ShippingAddress } from "~/utils/checkout";
import type { Order, Viewer } from "./read.server";
import { ORDER_COLUMNS, withLines } from "./read.server";

/** The most orders listOrders reads when asked for none. */
const RECENT_ORDERS = 10;

/** The orders a viewer may see (a customer: their own; the shop: every order), newest first. */
function viewable(viewer: Viewer, db: Db) {
  const query = db.selectFrom("orders");
  return viewer.isAdmin ? query : query.where("userId", "=", viewer.userId ?? -1);
}

function newestFirst(viewer: Viewer, window: RowWindow, db: Db) {
  return viewable(viewer, db)
    .select(ORDER_COLUMNS)
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(window.limit)
    .offset(window.offset);
}

async function countViewable(viewer: Viewer, db: Db): Promise<number> {
  const { n } = await viewable(viewer, db)
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  return toCount(n);
}

/** One page of the viewer's orders, newest first, and how many there are in all (GET /api/orders, the /orders page). */
export async function listViewerOrdersPage(viewer: Viewer, window: RowWindow, db: Db = defaultDb): Promise<ListPage<Order>> {
  const total = await countViewable(viewer, db);
  const rows = window.offset < total ? await newestFirst(viewer, window, db).execute() : [];
  return { rows: await withLines(rows, db), total };
}

/** The viewer's newest orders, at most `limit` (a list to show in full is paged: listViewerOrdersPage). */
export async function listOrders(viewer: Viewer, limit = RECENT_ORDERS, db: Db = defaultDb): Promise<Order[]> {
  return withLines(await newestFirst(viewer, { offset: 0, limit }, db).execute(), db);
}

/** The address of the customer's latest order: the checkout form starts from it. */
export async function lastShippingAddress(userId: number, db: Db = defaultDb): Promise<Partial<ShippingAddress> | null> {
  const row = await db
    .selectFrom("orders")
    .select(["shipAddress", "shipCity", "shipState", "shipPincode"])
    .where("userId", "=", userId)
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .executeTakeFirst();
  return row ? { address: row.shipAddress, city: row.shipCity, state: row.shipState, pincode: row.shipPincode } : null;
}
