import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { lineTitle } from "~/utils/variants";
import { data } from "@remix-run/node";
import { Form, useActionData, useFetcher, useFetchers, useLoaderData } from "@remix-run/react";
import { Link } from "~/components/Link";
import type { FormEvent } from "react";
import { FormBanner } from "~/components/FormBanner";
import { CouponForm } from "~/components/CouponForm";
import { TrashIcon } from "~/components/account-icons";
import { OrderTotals } from "~/components/OrderTotals";
import { QuantityInput } from "~/components/QuantityInput";
import { pageAction } from "~/lib/form.server";
import { parseWith, safeRedirectPath } from "~/lib/http.server";
import { redirectWithToast, toastHeader } from "~/lib/toast.server";
import type { CartLine } from "~/models/cart.server";
import { addItem, clearCart, getCart, removeCartLine, updateCartLine } from "~/models/cart.server";
import { getUser } from "~/web/visitor.server";
import { couponIntents } from "~/web/coupon.server";
import { asOwner, currentCartId } from "~/web/visitor.server";
import type { CartActionData, CartIntent } from "~/utils/cart";
import { CART_ACTION, pendingLines } from "~/utils/cart";
import { formatPrice } from "~/utils/money";
import { MAX_QUANTITY, MIN_QUANTITY, totalsWithCoupon } from "~/utils/pricing";
import { CartAddSchema, IdSchema, QuantitySchema } from "~/utils/schemas";
import { stockNote } from "~/utils/stock";

export const meta: MetaFunction = () => [{ title: "Your Shopping Cart | Sagwan Living" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const [cart, user] = await Promise.all([getCart(await currentCartId(request)), getUser(request)]);
  return { ...cart, signedIn: user !== null };
}

/**
 * Every cart form posts here. Without JavaScript it carries `redirectTo` and is answered with a
 * redirect back and a toast; a fetcher's post is answered `{ ok: true }` and the toast.
 */
export const action = ({ request }: ActionFunctionArgs) =>
  pageAction(request, {
    intents: {
      add: (form) =>
        cartAnswer(request, form, async () => {
          const input = parseWith(CartAddSchema, {
            itemId: form.get("itemId"),
            variantId: form.get("variantId") ?? undefined,
            quantity: form.get("quantity") ?? undefined,
          });
          const { line, headers } = await asOwner(request, "carts", (owner) => addItem(owner, input));
          return { message: `${lineTitle(line.item.title, line.variantLabel)} added to cart`, headers };
        }),
      update: (form) =>
        cartAnswer(request, form, async () => {
          const lineId = parseWith(IdSchema, form.get("id"));
          const quantity = parseWith(QuantitySchema, form.get("quantity"));
          const line = await updateCartLine(await currentCartId(request), lineId, quantity);
          return { message: `Quantity of ${lineTitle(line.item.title, line.variantLabel)} updated` };
        }),
      remove: (form) =>
        cartAnswer(request, form, async () => {
          await removeCartLine(await currentCartId(request), parseWith(IdSchema, form.get("id")));
          return { message: "Item removed from cart" };
        }),
      clear: (form) =>
        cartAnswer(request, form, async () => {
          await clearCart(await currentCartId(request));
          return { message: "Cart cleared" };
        }),
      ...couponIntents(request, "/cart"),
    } satisfies Record<CartIntent, (form: FormData) => Promise<unknown>>,
  });

/** One cart form's change, answered: its toast, and the Set-Cookie of a guest's first cart. */
async function cartAnswer(request: Request, form: FormData, change: () => Promise<{ message: string; headers?: Headers }>) {
  const redirectTo = form.has("redirectTo") ? safeRedirectPath(form.get("redirectTo"), CART_ACTION) : null;
  const { message, headers = new Headers() } = await change();
  const toast = { type: "success" as const, title: message };
  if (redirectTo) return redirectWithToast(request, redirectTo, toast, { headers });
  headers.append("Set-Cookie", await toastHeader(request, toast));
  return data({ ok: true } satisfies CartActionData, { headers });
}

function CartLineRow({ line, serverQuantity }: { line: CartLine; serverQuantity: number }) {
  const fetcher = useFetcher<CartActionData>({ key: `cart-line-${line.id}` });
  const error = fetcher.data && !fetcher.data.ok ? fetcher.data.formError : null;
  // What the customer may have: stock less what other customers hold while they pay (ADR 0012).
  const max = Math.min(MAX_QUANTITY, Math.max(line.item.available, 1));
  const note = stockNote(line.item.available, line.item.stock);
  const name = lineTitle(line.item.title, line.variantLabel);
  const submit = (fields: Record<string, string>) =>
    fetcher.submit({ id: String(line.id), previous: String(serverQuantity), ...fields }, { method: "post", action: CART_ACTION });
  const onRemove = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    submit({ intent: "remove" });
  };
  const onUpdate = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const q = Number(new FormData(event.currentTarget).get("quantity"));
    if (Number.isInteger(q) && q >= MIN_QUANTITY && q <= max) submit({ intent: "update", quantity: String(q) });
  };
  return (
    <li className="flex gap-3 py-5 sm:gap-4" data-testid="cart-line">
      <Link to={`/product/${line.item.slug}`} className="shrink-0" tabIndex={-1} aria-hidden="true">
        <img src={line.item.imgPath} alt={name} width={800} height={600} className="aspect-[4/3] w-20 rounded-lg object-cover sm:w-32" />
      </Link>
      <div className="flex min-w-0 flex-1 flex-col gap-2">
        <div className="flex items-start justify-between gap-2">
          <div>
            <Link to={`/product/${line.item.slug}`} className="font-semibold text-ink hover:text-wood-700">
              {line.item.title}
            </Link>
            {line.variantLabel ? (
              <p className="text-sm text-stone-700" data-testid="cart-line-variant">
                {line.variantLabel}
              </p>
            ) : null}
            <p className="text-sm text-stone-600">{formatPrice(line.item.price)} each</p>
            {note ? (
              <p className="text-sm font-semibold text-wood-700" data-testid="stock-left">
                {note}
              </p>
            ) : null}
          </div>
          <Form method="post" action={CART_ACTION} onSubmit={onRemove}>
            <input type="hidden" name="intent" value="remove" />
            <input type="hidden" name="id" value={line.id} />
            <input type="hidden" name="redirectTo" value="/cart" />
            <button type="submit" className="btn-ghost -mr-2 -mt-2 px-3 text-red-700" aria-label={`Remove ${name} from cart`}>
              <TrashIcon className="h-5 w-5" /> <span className="hidden sm:inline">Remove</span>
            </button>
          </Form>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {/* Without JavaScript: a plain form whose default button is "Update". */}
          <Form method="post" action={CART_ACTION} className="flex items-center gap-2" onSubmit={onUpdate}>
            <input type="hidden" name="intent" value="update" />
            <input type="hidden" name="id" value={line.id} />
            <input type="hidden" name="redirectTo" value="/cart" />
            <QuantityInput
              id={`qty-${line.id}`}
              label={`Quantity of ${name}`}
              value={line.quantity}
              max={max}
              onChange={(q) => submit({ intent: "update", quantity: String(q) })}
            />
            <noscript>
              <button type="submit" className="btn-secondary">
                Update
              </button>
            </noscript>
          </Form>
          <p className="ml-auto font-semibold" data-testid="line-total">
            {formatPrice(line.item.price * line.quantity)}
          </p>
        </div>
        {error ? (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        ) : null}
      </div>
    </li>
  );
}

export default function CartPage() {
  const cart = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const clearFetcher = useFetcher<CartActionData>({ key: "cart-clear" });
  const lines = pendingLines(cart.items, useFetchers());
  // The coupon's rule prices a pending change at once; the server's answer follows (utils/pricing).
  const totals = totalsWithCoupon(
    lines.map((l) => ({ quantity: l.quantity, price: l.item.price, categoryId: l.item.categoryId })),
    cart.coupon?.rule ?? null,
  );
  const formError = actionData && !actionData.ok && "formError" in actionData ? actionData.formError : null;
  const onClear = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    clearFetcher.submit({ intent: "clear" }, { method: "post", action: CART_ACTION });
  };

  if (lines.length === 0) {
    return (
      <section className="container-page flex flex-col items-center py-20 text-center">
        <h1 className="text-3xl font-semibold">Your Cart is Empty</h1>
        <p className="mt-3 text-stone-600">Looks like you haven't added any items to your cart yet.</p>
        <FormBanner message={formError} className="mt-4" />
        <Link to="/categories" className="btn-primary mt-8">
          Browse Categories
        </Link>
      </section>
    );
  }

  return (
    <section className="container-page py-10">
      <h1 className="text-3xl font-semibold sm:text-4xl">Your Shopping Cart</h1>
      <FormBanner message={formError} className="mt-4" />
      <div className="mt-8 grid gap-8 lg:grid-cols-[1fr_380px]">
        <div className="card p-4 sm:p-6">
          <div className="flex items-center justify-between border-b border-sand-200 pb-4">
            <h2 className="font-sans text-lg font-semibold">Cart Items ({totals.count})</h2>
            <Form method="post" action={CART_ACTION} onSubmit={onClear}>
              <input type="hidden" name="intent" value="clear" />
              <input type="hidden" name="redirectTo" value="/cart" />
              <button type="submit" className="btn-ghost text-red-700">
                Clear Cart
              </button>
            </Form>
          </div>
          <ul className="divide-y divide-sand-200">
            {lines.map((line) => (
              <CartLineRow key={line.id} line={line} serverQuantity={cart.items.find((l) => l.id === line.id)?.quantity ?? line.quantity} />
            ))}
          </ul>
        </div>
        <aside className="card h-fit p-6" aria-labelledby="summary-heading">
          <h2 id="summary-heading" className="text-xl font-semibold">
            Order Summary
          </h2>
          <OrderTotals totals={{ ...totals, couponCode: cart.coupon?.code }} gstLabel="Tax (GST 18%)" className="mt-5" />
          <Link to="/checkout" className="btn-primary mt-6 w-full">
            Proceed to Checkout
          </Link>
          <Link to="/categories" className="btn-secondary mt-3 w-full">
            Continue Shopping
          </Link>
          <p className="mt-5 text-sm text-stone-600">Free shipping on orders over ₹25,000</p>
          <CouponForm coupon={cart.coupon} action="/cart" signedIn={cart.signedIn} />
        </aside>
      </div>
    </section>
  );
}
