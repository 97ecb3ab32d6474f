// An API client that built a guest cart with the session cookie keeps it when it signs in for a token.
import crypto from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { db } from "~/lib/db.server";
import { clientOf } from "~/lib/rate-limit.server";
import { registerAccount, verifySignup } from "~/models/users/signup.server";
import * as cartAdd from "~/routes/api.cart.add";
import * as cartGet from "~/routes/api.cart.get";
import * as login from "~/routes/api.user.auth.login";
import { createTestItem } from "../support/items";
import { latestCode } from "../support/outbox";
import { getRequest, jsonRequest } from "../support/requests";
import { asRecord, call, cookieJar } from "../support/route-calls";

let itemId = 0;

beforeAll(async () => {
  await ready;
  itemId = await createTestItem("api-merge-stool", { price: 1999, stock: 50 });
});

describe("API sign-in with a guest cart", () => {
  it("login for a token moves the cookie's guest cart into the account's, and the session lets go of it", async () => {
    const email = `api-merge-${crypto.randomBytes(4).toString("hex")}@example.com`;
    const client = clientOf(getRequest("/api/user/auth/register"));
    await registerAccount({ name: "Api Merge", email, mobile: null, password: "secret12" }, client);
    await verifySignup(email, await latestCode(email), null, client);

    const added = await call(cartAdd.action, jsonRequest("POST", "/api/cart/add", { itemId, quantity: 2 }));
    expect(added.status).toBe(200);
    const cookie = cookieJar(added);
    // The only session so far: the guest's, made by the add.
    const session = await db.selectFrom("sessions").select("data").executeTakeFirstOrThrow();
    const { cartId } = JSON.parse(session.data) as { cartId: string };
    expect(cartId).toBeTruthy();

    const signedIn = await call(
      login.action,
      jsonRequest("POST", "/api/user/auth/login", { email, password: "secret12" }, { Cookie: cookie }),
    );
    expect(signedIn.status).toBe(200);
    const token = asRecord(signedIn.body).token as string;
    expect(signedIn.headers.getSetCookie().some((c) => c.startsWith("__session="))).toBe(true);

    const cart = asRecord((await call(cartGet.loader, getRequest("/api/cart/get", { Authorization: `Bearer ${token}` }))).body);
    expect(cart.count).toBe(2);
    expect((cart.items as { itemId: number; quantity: number }[]).map((l) => [l.itemId, l.quantity])).toEqual([[itemId, 2]]);
    // The guest row is gone, and the session no longer points at it.
    expect(await db.selectFrom("carts").select("id").where("id", "=", cartId).executeTakeFirst()).toBeUndefined();
  });
});
