// The offline test gateway's own page, in place of Razorpay's Checkout while no Razorpay keys are
// set (with keys it answers 404). It shows the amount and two forms that post to the shop's
// callback URL exactly what Razorpay's redirect flow posts: the three razorpay_* fields of a paid
// payment, or Razorpay's error[…] fields of a failed one. Plain forms: no JavaScript needed.
// docs/decisions/0012.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Link } from "~/components/Link";
import { LockIcon } from "~/components/account-icons";
import { notFoundBoundary } from "~/components/NotFoundPage";
import { isAppError, notFoundPage } from "~/lib/errors.server";
import { PAYMENT_CALLBACK_PATH } from "~/lib/request-rules";
import { testGatewayPage } from "~/models/payments/test-gateway.server";
import { requireUser } from "~/web/visitor.server";
import { formatPrice } from "~/utils/money";
import { PaymentOrderIdSchema } from "~/utils/schemas";

export const meta: MetaFunction = () => [{ title: "Test Gateway | Sagwan Living" }, { name: "robots", content: "noindex" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const id = PaymentOrderIdSchema.safeParse(params.paymentOrderId);
  if (!id.success) throw notFoundPage("Payment Not Found");
  let gateway: Awaited<ReturnType<typeof testGatewayPage>>;
  try {
    gateway = await testGatewayPage(id.data, user.id);
  } catch (error) {
    if (isAppError(error) && error.status === 404) throw notFoundPage("Payment Not Found");
    throw error;
  }
  // Paid already, or failed: the shop's payment page says what happened.
  if (!gateway) throw redirect(`/pay/${id.data}`);
  // The page holds a signed payment: never kept by a cache.
  return data(
    { ...gateway, amount: gateway.amountPaise / 100, callback: PAYMENT_CALLBACK_PATH },
    { headers: { "Cache-Control": "no-store" } },
  );
}

function Hidden({ fields }: { fields: Record<string, string> }) {
  return (
    <>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
    </>
  );
}

export default function TestGatewayPage() {
  const page = useLoaderData<typeof loader>();
  return (
    <section className="bg-sand-50">
      <div className="container-page max-w-md py-10 sm:py-14">
        <div className="card overflow-hidden">
          <div
            className="flex items-center justify-between gap-3 border-t-4 px-5 py-4 text-white sm:px-6"
            style={{ backgroundColor: "#1f6f99", borderTopColor: "#3399cc" }}
          >
            <p className="font-semibold">Offline Test Gateway</p>
            <span className="rounded-full bg-yellow-300 px-3 py-1 text-xs font-bold uppercase tracking-wide text-yellow-950">
              Test payment
            </span>
          </div>
          <div className="space-y-5 p-5 sm:p-6">
            <h1 className="text-2xl font-semibold">Test Gateway</h1>
            <p className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
              This is a TEST gateway standing in for Razorpay. No money is taken. Paying here sends the shop the same fields Razorpay would.
            </p>
            <dl className="rounded-lg bg-sand-100 p-4 text-sm">
              <div className="flex justify-between">
                <dt>Merchant</dt>
                <dd>Sagwan Living</dd>
              </div>
              <div className="mt-1 flex justify-between">
                <dt>Amount</dt>
                <dd className="text-lg font-semibold" data-testid="gateway-amount">
                  {formatPrice(page.amount)}
                </dd>
              </div>
              <div className="mt-1 flex justify-between">
                <dt>Order</dt>
                <dd className="font-mono text-xs">{page.id}</dd>
              </div>
            </dl>
            {/* Plain forms, posted by the browser itself to the shop's callback URL, as from Razorpay's page. */}
            <form method="post" action={page.callback}>
              <Hidden fields={page.paid} />
              <button type="submit" className="btn-primary w-full">
                <LockIcon className="h-5 w-5" /> {`Pay ${formatPrice(page.amount)}`}
              </button>
            </form>
            <form method="post" action={page.callback}>
              <Hidden fields={page.failed} />
              <button type="submit" className="btn-secondary w-full">
                Simulate a failed payment
              </button>
            </form>
            <Link to={`/pay/${page.id}`} className="block text-center text-sm text-stone-600 underline">
              Cancel and return to the shop
            </Link>
          </div>
        </div>
      </div>
    </section>
  );
}

/** An unknown payment order, another customer's, or any with Razorpay keys set: its own 404 page. */
export const ErrorBoundary = notFoundBoundary({
  title: "Payment Not Found",
  message: "This payment does not exist or is not yours.",
  to: "/checkout",
  linkText: "Back to Checkout",
});
