// The coupon code box of the cart and the checkout (docs/product.md, Coupons): a real form posting
// to the page's own action (intent apply-coupon / remove-coupon), so it works without JavaScript;
// a refusal comes back as the page's action data and stands beside the field. On the checkout the
// box sits inside the order form, so its fields belong to a form of their own (`formId`, the HTML
// `form` attribute) rendered outside it by CouponFormOwner.
import { Form, useActionData } from "@remix-run/react";
import { Link } from "./Link";
import { FormField, fieldA11y, fieldProps } from "~/components/FormField";
import { COUPON_INPUT } from "~/utils/coupon-fields";
import { useIsPending } from "~/hooks/useIsPending";

/** The cart's coupon as the box shows it (models/coupons/apply.server's CartCoupon). */
export interface CouponView {
  code: string;
  deal: string;
  problem: string | null;
}

/** What a refused code answers (web/coupon.server): its message beside the field and what was typed. */
interface CouponAnswer {
  fieldErrors?: Record<string, string>;
  values?: Record<string, string>;
}

const ID = "coupon-code";

/** The empty form the checkout's coupon fields belong to (outside the order form: forms do not nest). */
export function CouponFormOwner({ id, action }: { id: string; action: string }) {
  return <Form id={id} method="post" action={action} className="hidden" aria-hidden="true" />;
}

export function CouponForm({
  coupon,
  action,
  formId,
  signedIn = true,
}: {
  coupon: CouponView | null;
  /** the page's own path: the answer (or its refusal) comes back to this page */
  action: string;
  /** on the checkout: the id of the CouponFormOwner the fields belong to */
  formId?: string;
  signedIn?: boolean;
}) {
  const answer = useActionData() as CouponAnswer | undefined;
  const error = answer?.fieldErrors?.couponCode;
  const applying = useIsPending({ formAction: action, intent: "apply-coupon" });
  const removing = useIsPending({ formAction: action, intent: "remove-coupon" });
  if (!signedIn) {
    return (
      <p className="mt-1 text-sm text-stone-600">
        Have a coupon? You'll be able to apply it at checkout.{" "}
        <Link to={`/login?redirectTo=${encodeURIComponent(action)}`} className="font-medium text-wood-700 underline">
          Log in to apply it now
        </Link>
      </p>
    );
  }
  const fields = (
    <>
      <div className="flex items-start gap-2">
        <div className="min-w-0 flex-1">
          <FormField id={ID} label={coupon ? "Another coupon code" : "Coupon code"} error={error}>
            <input
              // A new code applied (or removed) starts the field empty again, also when the page is not reloaded.
              key={coupon?.code ?? ""}
              id={ID}
              name="couponCode"
              form={formId}
              {...fieldProps(COUPON_INPUT)}
              defaultValue={error ? (answer?.values?.couponCode ?? "") : ""}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              className="field-input uppercase"
              {...fieldA11y(ID, error)}
            />
          </FormField>
        </div>
        <button type="submit" name="intent" value="apply-coupon" form={formId} className="btn-secondary mt-7 shrink-0" disabled={applying}>
          {applying ? "Applying..." : "Apply"}
        </button>
      </div>
      {coupon ? (
        <div
          className={`mt-3 flex items-start justify-between gap-3 rounded-lg border p-3 text-sm ${
            coupon.problem ? "border-amber-200 bg-amber-50 text-amber-900" : "border-green-200 bg-green-50 text-green-900"
          }`}
          data-testid="applied-coupon"
        >
          <p role={coupon.problem ? "alert" : undefined}>
            {coupon.problem ?? (
              <>
                <span className="font-semibold">{coupon.code}</span> applied: {coupon.deal}
              </>
            )}
          </p>
          <button
            type="submit"
            name="intent"
            value="remove-coupon"
            form={formId}
            className="shrink-0 font-semibold underline"
            disabled={removing}
            aria-label={`Remove the coupon ${coupon.code}`}
          >
            {removing ? "Removing..." : "Remove"}
          </button>
        </div>
      ) : null}
    </>
  );
  return (
    <section aria-label="Coupon" className="mt-5 border-t border-sand-200 pt-4">
      {formId ? (
        fields
      ) : (
        <Form method="post" action={action} noValidate>
          {fields}
        </Form>
      )}
    </section>
  );
}
