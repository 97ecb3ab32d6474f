import crypto from "node:crypto";
import { lineTitle } from "~/utils/variants";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Link } from "~/components/Link";
import { z } from "zod";
import { FormBanner } from "~/components/FormBanner";
import { CouponForm, CouponFormOwner } from "~/components/CouponForm";
import { FormField, fieldA11y, fieldProps } from "~/components/FormField";
import { LockIcon } from "~/components/account-icons";
import { TruckIcon } from "~/components/service-icons";
import { OrderTotals } from "~/components/OrderTotals";
import { PincodeAutofill } from "~/components/PincodeAutofill";
import { useFormErrors } from "~/hooks/useFormErrors";
import { isAppError, OrderExistsError } from "~/lib/errors.server";
import { formValues, pageAction } from "~/lib/form.server";
import { parseWith } from "~/lib/http.server";
import { paymentMode } from "~/lib/payments.server";
import { redirectWithToast } from "~/lib/toast.server";
import { getCart } from "~/models/cart.server";
import { shortage } from "~/models/reservations.server";
import { checkout } from "~/models/orders/checkout.server";
import { lastShippingAddress, listOrders } from "~/models/orders/list.server";
import { requireUser } from "~/web/visitor.server";
import { couponIntents } from "~/web/coupon.server";
import { currentCartId } from "~/web/visitor.server";
import { CheckoutSchema, IdempotencyKeySchema } from "~/utils/checkout";
import type { ShippingField } from "~/utils/checkout-fields";
import { INDIAN_STATES, SHIPPING_FIELDS, SHIPPING_RULES } from "~/utils/checkout-fields";
import { COUPON_INTENTS } from "~/utils/coupon-fields";
import { useIsPending } from "~/hooks/useIsPending";
import { formatPrice } from "~/utils/money";

export const meta: MetaFunction = () => [{ title: "Checkout | Sagwan Living" }, { name: "robots", content: "noindex" }];

/** The total the form was rendered with; absent (an older form, a script) means no comparison. */
const ExpectedTotalSchema = z
  .string()
  .regex(/^\d{1,10}$/)
  .transform(Number);
const ORDER_FAILED = "We could not place your order. Please try again.";
const ECHOED = [...SHIPPING_FIELDS, "paymentMethod"];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const cart = await getCart(await currentCartId(request));
  if (cart.items.length === 0) throw redirect("/cart");
  const last = await lastShippingAddress(user.id);
  const defaults: Record<ShippingField, string> = {
    name: user.name,
    phone: user.mobile ?? "",
    email: user.email,
    address: last?.address ?? "",
    city: last?.city ?? "",
    state: last?.state ?? "",
    pincode: last?.pincode ?? "",
  };
  // Against what the customer may have: stock less what other customers hold while they pay (ADR 0012).
  const shortages = cart.items
    .map((l) =>
      shortage(
        {
          title: lineTitle(l.item.title, l.variantLabel),
          stock: l.item.available,
          quantity: l.quantity,
          held: l.item.stock - l.item.available,
        },
        "ordering",
      ),
    )
    .filter((m) => m !== null);
  // One key per rendered form: posting it twice (a double click, a retried request) never makes two orders.
  return { cart, defaults, shortages, idempotencyKey: crypto.randomBytes(16).toString("hex"), testGateway: paymentMode() === "offline" };
}

/** The coupon box's two intents, and the order form's `place`: it posts no intent (docs/api.md's `POST /checkout`). */
export const action = ({ request }: ActionFunctionArgs) =>
  pageAction(
    request,
    { intents: { place: (form) => placeOrder(request, form), ...couponIntents(request, "/checkout") }, absent: "place" },
    { echo: ECHOED, banner: true, unexpected: ORDER_FAILED },
  );

async function placeOrder(request: Request, form: FormData) {
  const user = await requireUser(request);
  const { shipping, paymentMethod } = parseWith(CheckoutSchema, formValues(form, ECHOED));
  const idempotencyKey = parseWith(IdempotencyKeySchema, form.get("idempotencyKey") ?? undefined);
  // The total the customer saw: a cart changed in another tab since is not ordered blindly.
  const seen = ExpectedTotalSchema.safeParse(form.get("expectedTotal"));
  const expectedTotal = seen.success ? seen.data : undefined;
  try {
    const placed = await checkout(user.id, { shipping, paymentMethod, idempotencyKey, expectedTotal });
    if (placed.next === "payment") return redirect(`/pay/${placed.paymentOrderId}`, 303);
    return redirect(`/order-confirmation/${placed.order.id}`, 303);
  } catch (error) {
    // The same form posted again: show the order the first post made.
    if (error instanceof OrderExistsError) return redirect(`/order-confirmation/${error.orderId}`, 303);
    if (isAppError(error, "EMPTY_CART")) return emptyCartAnswer(request, user.id);
    throw error;
  }
}

/** The cart was emptied meanwhile (most often: the order was placed from another tab). */
async function emptyCartAnswer(request: Request, userId: number) {
  const recent = await listOrders({ userId, isAdmin: false }, 1);
  if (recent.length > 0) {
    return redirectWithToast(request, "/orders", {
      type: "info",
      title: "Your cart is empty",
      description: "Your latest orders are below.",
    });
  }
  return redirect("/cart", 303);
}

type Field = {
  name: ShippingField;
  label: string;
  autoComplete: string;
  inputMode?: "numeric" | "tel" | "email";
  wide?: boolean;
  list?: string;
};

/** The form's order and labels; the constraints are SHIPPING_RULES (the schema reads them too). */
const FIELDS: Field[] = [
  { name: "name", label: "Full Name", autoComplete: "name" },
  { name: "phone", label: "Phone Number", autoComplete: "tel-national", inputMode: "tel" },
  { name: "email", label: "Email", autoComplete: "email", inputMode: "email", wide: true },
  { name: "address", label: "Address", autoComplete: "street-address", wide: true },
  { name: "city", label: "City", autoComplete: "address-level2" },
  { name: "state", label: "State", autoComplete: "address-level1", list: "indian-states" },
  { name: "pincode", label: "Pincode", autoComplete: "postal-code", inputMode: "numeric" },
];

export default function CheckoutPage() {
  const { cart, defaults, shortages, idempotencyKey, testGateway } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const errors = useFormErrors(result);
  const navigation = useNavigation();
  // The coupon box posts to /checkout too: applying a code is not placing the order.
  const couponPost = (COUPON_INTENTS as readonly unknown[]).includes(navigation.formData?.get("intent"));
  const busy = useIsPending({ formAction: "/checkout" }) && !couponPost;
  const value = (name: string) => errors.value(name) ?? defaults[name as ShippingField] ?? "";
  const method = errors.value("paymentMethod") === "online" ? "online" : "cod";

  return (
    <section className="bg-sand-50">
      <div className="container-page py-10 sm:py-14">
        <h1 className="text-3xl font-semibold sm:text-4xl">Checkout</h1>
        <Form
          method="post"
          action="/checkout"
          noValidate
          onChange={errors.onChange}
          className="mt-8 grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_400px] lg:gap-8"
        >
          <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
          <input type="hidden" name="expectedTotal" value={cart.total} />
          <div className="min-w-0 space-y-6">
            <FormBanner message={errors.formError} />
            <section aria-labelledby="shipping-heading" className="card p-5 sm:p-6">
              <h2 id="shipping-heading" className="text-xl font-semibold">
                Shipping Information
              </h2>
              <div className="mt-5 grid grid-cols-1 gap-5 sm:grid-cols-2">
                {FIELDS.map((f) => {
                  const id = `checkout-${f.name}`;
                  const error = errors.error(f.name);
                  return (
                    <div key={f.name} className={f.wide ? "sm:col-span-2" : undefined}>
                      <FormField id={id} label={f.label} required error={error}>
                        <input
                          id={id}
                          name={f.name}
                          {...fieldProps(SHIPPING_RULES[f.name])}
                          autoComplete={f.autoComplete}
                          inputMode={f.inputMode}
                          list={f.list}
                          aria-required="true"
                          defaultValue={value(f.name)}
                          className="field-input"
                          {...fieldA11y(id, error)}
                        />
                      </FormField>
                    </div>
                  );
                })}
                <datalist id="indian-states">
                  {INDIAN_STATES.map((s) => (
                    <option key={s} value={s} />
                  ))}
                </datalist>
                <PincodeAutofill prefix="checkout" />
              </div>
            </section>

            <fieldset className="card p-5 sm:p-6">
              <legend className="float-left w-full font-display text-xl font-semibold text-ink">Payment Method</legend>
              <div className="clear-both space-y-3 pt-5">
                <PaymentOption
                  value="cod"
                  label="Cash on Delivery"
                  defaultChecked={method === "cod"}
                  note="Pay in cash or by UPI when your furniture arrives."
                />
                <PaymentOption
                  value="online"
                  label="Online Payment (Credit/Debit Card, UPI, Net Banking)"
                  defaultChecked={method === "online"}
                  note={
                    testGateway
                      ? "Test mode: you will pay on our test payment page, and no money is taken."
                      : "Secure payment through Razorpay."
                  }
                />
              </div>
              {errors.error("paymentMethod") ? <p className="field-error">{errors.error("paymentMethod")}</p> : null}
            </fieldset>
          </div>

          <aside aria-labelledby="summary-heading" className="card h-fit min-w-0 p-5 sm:p-6 lg:sticky lg:top-24">
            <h2 id="summary-heading" className="text-xl font-semibold">
              Order Summary
            </h2>
            <ul className="mt-5 divide-y divide-sand-200" aria-label="Items">
              {cart.items.map((line) => (
                <li key={line.id} className="flex items-center gap-3 py-3">
                  <img
                    src={line.item.imgPath}
                    alt=""
                    width={56}
                    height={56}
                    className="h-14 w-14 shrink-0 rounded-md bg-sand-100 object-cover"
                  />
                  <div className="min-w-0 flex-1">
                    <p className="truncate text-sm font-medium">{lineTitle(line.item.title, line.variantLabel)}</p>
                    <p className="text-sm text-stone-600">Qty: {line.quantity}</p>
                  </div>
                  <p className="text-sm font-semibold" data-testid="line-price">
                    {formatPrice(line.item.price * line.quantity)}
                  </p>
                </li>
              ))}
            </ul>
            {shortages.length > 0 ? (
              <div role="alert" className="mt-3 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
                {shortages.map((s) => (
                  <p key={s}>{s}</p>
                ))}
                <Link to="/cart" className="mt-1 inline-block font-semibold underline">
                  Update your cart
                </Link>
              </div>
            ) : null}
            <CouponForm coupon={cart.coupon} action="/checkout" formId="coupon-form" />
            <OrderTotals totals={{ ...cart, couponCode: cart.coupon?.code }} className="mt-4 border-t border-sand-200 pt-4" />
            <button type="submit" className="btn-primary mt-6 w-full" disabled={busy}>
              <LockIcon className="h-5 w-5" /> {busy ? "Placing Order..." : "Place Order"}
            </button>
            <p className="mt-4 text-center text-xs text-stone-600">
              By placing your order, you agree to our{" "}
              <Link to="/t&c" className="underline">
                Terms &amp; Conditions
              </Link>{" "}
              and{" "}
              <Link to="/privacy-policy" className="underline">
                Privacy Policy
              </Link>
              .
            </p>
            <p className="mt-4 flex items-center justify-center gap-2 text-xs text-stone-600">
              <TruckIcon className="h-4 w-4" /> Standard Delivery: business days by your pincode&apos;s zone
            </p>
          </aside>
        </Form>
        <CouponFormOwner id="coupon-form" action="/checkout" />
      </div>
    </section>
  );
}

function PaymentOption({
  value,
  label,
  note,
  defaultChecked,
}: {
  value: "cod" | "online";
  label: string;
  note: string;
  defaultChecked: boolean;
}) {
  const id = `payment-${value}`;
  return (
    <div className="flex gap-3 rounded-lg border border-sand-200 p-4 has-[:checked]:border-wood-600 has-[:checked]:bg-wood-50">
      <input
        id={id}
        type="radio"
        name="paymentMethod"
        value={value}
        defaultChecked={defaultChecked}
        aria-describedby={`${id}-note`}
        className="mt-1 h-4 w-4 accent-wood-700"
      />
      <div>
        <label htmlFor={id} className="font-medium">
          {label}
        </label>
        <p id={`${id}-note`} className="text-sm text-stone-600">
          {note}
        </p>
      </div>
    </div>
  );
}
