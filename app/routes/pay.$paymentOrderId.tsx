// The payment step of an online order. With Razorpay keys it opens Razorpay Checkout, whose handler
// posts its proof here; without them its Pay button opens the offline test gateway's own page
// (/test-gateway/{id}), which hands its proof to the shop's callback (/rzp/payment-callback) as
// Razorpay's redirect flow does. Either way the proof goes through the same verification
// (payForOrder); docs/decisions/0012.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useSubmit } from "@remix-run/react";
import { Link } from "~/components/Link";
import { useEffect, useRef, useState } from "react";
import { z } from "zod";
import { FormBanner } from "~/components/FormBanner";
import { LockIcon } from "~/components/account-icons";
import { notFoundBoundary } from "~/components/NotFoundPage";
import { notFound, notFoundPage, OrderExistsError } from "~/lib/errors.server";
import { pageAction } from "~/lib/form.server";
import { parseWith } from "~/lib/http.server";
import { paymentMode, publicKeyId } from "~/lib/payments.server";
import type { PaymentAttempt } from "~/models/payments/place.server";
import type { OrderRefund } from "~/models/refunds/read.server";
import { PAYMENT_FAILED } from "~/models/payments/verify.server";
import { failedMessage, getPaymentOrder } from "~/models/payments/payment-orders.server";
import { payForOrder } from "~/models/payments/place.server";
import { heldUntil } from "~/models/reservations.server";
import { customerView, refundsForPaymentOrder } from "~/models/refunds/read.server";
import { RefundList } from "~/components/RefundList";
import { requireUser } from "~/web/visitor.server";
import { PaymentProofSchema } from "~/utils/checkout";
import { PaymentOrderIdSchema } from "~/utils/schemas";
import { useIsPending } from "~/hooks/useIsPending";
import { formatDateTime } from "~/utils/dates";
import { formatPrice } from "~/utils/money";
import { useNonce } from "~/hooks/useNonce";

export const meta: MetaFunction = () => [{ title: "Payment | Sagwan Living" }, { name: "robots", content: "noindex" }];

/** What the gateway's callback came back with (?payment=…): a fixed message, never the poster's words. */
const CallbackSchema = z.enum(["failed", "refused", "busy"]);

async function paymentOrderOf(request: Request, rawId: string | undefined) {
  const user = await requireUser(request);
  const id = PaymentOrderIdSchema.safeParse(rawId);
  const paymentOrder = id.success ? await getPaymentOrder(id.data, user.id) : null;
  return { user, paymentOrder };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, paymentOrder } = await paymentOrderOf(request, params.paymentOrderId);
  if (!paymentOrder) throw notFoundPage("Payment Not Found");
  if (paymentOrder.orderId) throw redirect(`/order-confirmation/${paymentOrder.orderId}`);
  const callback = CallbackSchema.safeParse(new URL(request.url).searchParams.get("payment"));
  const status = paymentOrder.status;
  return {
    id: paymentOrder.id,
    amount: paymentOrder.amountPaise / 100,
    amountPaise: paymentOrder.amountPaise,
    failure: status === "failed" ? failedMessage(paymentOrder.failure) : null,
    // A payment that could not become an order: its refund and where it stands (ADR 0012).
    refunds: status === "failed" ? (await refundsForPaymentOrder(paymentOrder.id)).map(customerView) : [],
    // The gateway's callback could not make the order: why (nothing paid, the reason kept with a payment, too many tries).
    callbackError: !callback.success
      ? null
      : callback.data === "busy"
        ? "Too many payment attempts. Please wait a few minutes and try again."
        : status === "created"
          ? PAYMENT_FAILED
          : status === "paid"
            ? (paymentOrder.failure ?? null)
            : null,
    // Paid, but the order could not be placed then (the cart changed): the customer can finish.
    paid: paymentOrder.status === "paid",
    // Until when the cart's units are held for this payment (ADR 0012), in India's time, or null.
    heldUntil: status === "created" ? await heldUntil(paymentOrder.id).then((at) => (at ? formatDateTime(at) : null)) : null,
    mode: paymentMode(),
    key: publicKeyId(),
    prefill: { name: user.name, email: user.email, contact: user.mobile ?? "" },
  };
}

export const action = ({ request, params }: ActionFunctionArgs) =>
  pageAction(
    request,
    {
      intents: {
        // The offline Pay button opens the test gateway's own page, as Razorpay's opens its Checkout.
        gateway: async () => redirect(`/test-gateway/${(await payingFor(request, params.paymentOrderId)).paymentOrder.id}`, 303),
        place: () => pay(request, params.paymentOrderId, () => ({ intent: "place" })),
        complete: (form) =>
          pay(request, params.paymentOrderId, () => ({
            intent: "complete",
            proof: parseWith(PaymentProofSchema, Object.fromEntries(form)),
          })),
      },
    },
    { unexpected: "We could not confirm your payment. Please try again." },
  );

const confirmation = (orderId: number) => redirect(`/order-confirmation/${orderId}`, 303);

/** The signed-in customer's payment order of the page (404 when it is not theirs or not there). */
async function payingFor(request: Request, rawId: string | undefined) {
  const { user, paymentOrder } = await paymentOrderOf(request, rawId);
  if (!paymentOrder) throw notFound("That payment was not found");
  return { user, paymentOrder };
}

/** 'Place my order', or Razorpay Checkout's answer with its proof. */
async function pay(request: Request, rawId: string | undefined, attempt: () => PaymentAttempt) {
  const { user, paymentOrder } = await payingFor(request, rawId);
  try {
    return confirmation(await payForOrder(user.id, paymentOrder, attempt()));
  } catch (error) {
    // This payment (or this form's earlier post) made an order already: show it.
    if (error instanceof OrderExistsError) return confirmation(error.orderId);
    throw error;
  }
}

export default function PaymentPage() {
  const page = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useIsPending();

  const error = result && "formError" in result ? result.formError : (page.failure ?? page.callbackError ?? undefined);
  if (page.paid || page.failure) return <PaidPayment page={page} error={error} busy={busy} />;
  return (
    <section className="bg-sand-50">
      <div className="container-page max-w-xl py-10 sm:py-14">
        <FormBanner message={error} />
        <p className="mb-4 text-sm text-stone-700" data-testid="held-until">
          {page.heldUntil
            ? `We are holding your pieces until ${page.heldUntil}. Please pay before then.`
            : "Your pieces are no longer held for you: pay now and the order is placed if they are still in stock, or refunded."}
        </p>
        {page.mode === "offline" ? (
          <div className="card overflow-hidden">
            {/* Razorpay's theme colour #3399cc as the accent; the bar itself darker, for legible white text. */}
            <div
              className="flex items-center justify-between gap-3 border-t-4 px-5 py-4 text-white sm:px-6"
              style={{ backgroundColor: "#1f6f99", borderTopColor: "#3399cc" }}
            >
              <p className="font-semibold">Sagwan Living · Test Gateway</p>
              <span className="rounded-full bg-yellow-300 px-3 py-1 text-xs font-bold uppercase tracking-wide text-yellow-950">
                Test payment
              </span>
            </div>
            <div className="space-y-5 p-5 sm:p-6">
              <h1 className="text-2xl font-semibold">Complete your payment</h1>
              <p className="text-sm text-stone-700">
                This shop has no Razorpay keys configured, so payments go to its offline test gateway: no card, UPI or bank details are
                asked for and no money is taken. The gateway signs the payment exactly as Razorpay does.
              </p>
              <dl className="rounded-lg bg-sand-100 p-4 text-sm">
                <div className="flex justify-between">
                  <dt>Amount</dt>
                  <dd className="text-lg font-semibold" data-testid="pay-amount">
                    {formatPrice(page.amount)}
                  </dd>
                </div>
                <div className="mt-1 flex justify-between">
                  <dt>Payment order</dt>
                  <dd className="font-mono text-xs">{page.id}</dd>
                </div>
              </dl>
              {/* Opens the gateway, as Razorpay's button opens Checkout: the gateway's page posts its answer back to the shop. */}
              <Form method="post">
                <button type="submit" name="intent" value="gateway" className="btn-primary w-full" disabled={busy}>
                  <LockIcon className="h-5 w-5" /> {`Pay ${formatPrice(page.amount)}`}
                </button>
              </Form>
              <Link to="/checkout" className="block text-center text-sm text-stone-600 underline">
                Cancel and return to checkout
              </Link>
            </div>
          </div>
        ) : (
          <RazorpayCheckout page={page} busy={busy} />
        )}
      </div>
    </section>
  );
}

/** A payment already received: place its order (once the cart matches it again), or read why it will be refunded. */
function PaidPayment({
  page,
  error,
  busy,
}: {
  page: { amount: number; failure: string | null; refunds: OrderRefund[] };
  error?: string;
  busy: boolean;
}) {
  return (
    <section className="bg-sand-50">
      <div className="container-page max-w-xl py-10 sm:py-14">
        <FormBanner message={error} />
        <div className="card space-y-5 p-5 sm:p-6">
          <h1 className="text-2xl font-semibold">Payment received</h1>
          <p className="text-stone-700">We have received your payment of {formatPrice(page.amount)}.</p>
          {page.failure ? (
            <>
              <p className="text-sm text-stone-700">
                It is refunded to the account you paid from; banks usually show a refund within 5-7 business days. Write to us if you have
                any question.
              </p>
              <RefundList refunds={page.refunds} />
            </>
          ) : (
            <>
              <p className="text-sm text-stone-700">
                Your order has not been placed yet. If your cart changed after you paid, put it back as it was, then place the order.
              </p>
              <Form method="post">
                <button type="submit" name="intent" value="place" className="btn-primary w-full" disabled={busy}>
                  {busy ? "Placing Order..." : "Place my order"}
                </button>
              </Form>
              <Link to="/cart" className="block text-center text-sm text-stone-600 underline">
                Review your cart
              </Link>
            </>
          )}
        </div>
      </div>
    </section>
  );
}

declare global {
  interface Window {
    Razorpay?: new (options: Record<string, unknown>) => { open: () => void; on: (event: string, cb: (e: unknown) => void) => void };
  }
}

type Page = {
  id: string;
  amount: number;
  amountPaise: number;
  key: string | null;
  prefill: { name: string; email: string; contact: string };
};

/** Razorpay Checkout (theme #3399cc): its handler posts the three fields back here. Needs JavaScript. */
function RazorpayCheckout({ page, busy }: { page: Page; busy: boolean }) {
  const submit = useSubmit();
  const nonce = useNonce();
  const [message, setMessage] = useState<string | null>(null);
  const opened = useRef(false);

  const open = () => {
    const start = () => {
      if (!window.Razorpay || !page.key) return setMessage("Razorpay could not be loaded. Please check your connection and try again.");
      const checkout = new window.Razorpay({
        key: page.key,
        amount: page.amountPaise,
        currency: "INR",
        order_id: page.id,
        name: "Sagwan Living",
        description: "Furniture order",
        prefill: page.prefill,
        theme: { color: "#3399cc" },
        handler: (response: Record<string, string>) =>
          submit(
            {
              intent: "complete",
              razorpay_order_id: response.razorpay_order_id ?? "",
              razorpay_payment_id: response.razorpay_payment_id ?? "",
              razorpay_signature: response.razorpay_signature ?? "",
            },
            { method: "post" },
          ),
        modal: { ondismiss: () => setMessage("Payment was cancelled. You can try again, or go back and choose Cash on Delivery.") },
      });
      checkout.on("payment.failed", () => setMessage("Payment verification failed"));
      checkout.open();
    };
    if (window.Razorpay) return start();
    const script = document.createElement("script");
    script.src = "https://checkout.razorpay.com/v1/checkout.js";
    script.nonce = nonce;
    script.onload = start;
    script.onerror = () => setMessage("Razorpay could not be loaded. Please check your connection and try again.");
    document.body.appendChild(script);
  };

  useEffect(() => {
    if (opened.current) return;
    opened.current = true;
    open();
    // open once, on arrival
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <div className="card space-y-5 p-5 sm:p-6">
      <h1 className="text-2xl font-semibold">Complete your payment</h1>
      <p className="text-lg font-semibold">{formatPrice(page.amount)}</p>
      <FormBanner message={message} className="" />
      <button type="button" className="btn-primary w-full" onClick={open} disabled={busy}>
        <LockIcon className="h-5 w-5" /> {busy ? "Processing..." : `Pay ${formatPrice(page.amount)} with Razorpay`}
      </button>
      <noscript>
        <p className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
          Razorpay&apos;s payment window needs JavaScript. Please turn it on, or go back and choose Cash on Delivery.
        </p>
      </noscript>
      <Link to="/checkout" className="block text-center text-sm text-stone-600 underline">
        Cancel and return to checkout
      </Link>
    </div>
  );
}

/** An unknown payment, or another customer's: its own 404 page. */
export const ErrorBoundary = notFoundBoundary({
  title: "Payment Not Found",
  message: "This payment does not exist or is not yours.",
  to: "/checkout",
  linkText: "Back to Checkout",
});
