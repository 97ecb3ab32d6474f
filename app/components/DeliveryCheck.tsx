// The product page's 'Check delivery' (ADR 0017): a GET form of the page itself (?pincode=), so it
// works without JavaScript; the server answers 'Delivery by {date}' or 'We do not deliver to
// {pincode} yet', and whether cash on delivery is possible, and remembers the pincode for the visit.
import { Form, useLocation, useNavigation } from "@remix-run/react";
import { TruckIcon } from "~/components/service-icons";
import { FormField, fieldA11y } from "~/components/FormField";
import { formatLongDate } from "~/utils/dates";
import type { DeliveryCheckState } from "~/utils/delivery";
import { DELIVERY_MESSAGES, MADE_TO_ORDER_DAYS, PINCODE_PATTERN } from "~/utils/delivery";
import { dateAtNoonInIndia } from "~/utils/delivery-dates";

/** `madeToOrder`: the product is made after it is ordered, which the page says before any pincode is asked. */
export function DeliveryCheck({ check, madeToOrder = false }: { check: DeliveryCheckState; madeToOrder?: boolean }) {
  const location = useLocation();
  const navigation = useNavigation();
  const busy =
    navigation.state !== "idle" && navigation.location?.pathname === location.pathname && navigation.location.search.includes("pincode=");
  const id = "delivery-pincode";
  const error = check.pincode !== null && check.error ? check.error : undefined;
  const quote = check.pincode !== null ? check.quote : undefined;
  const tab = new URLSearchParams(location.search).get("tab");
  return (
    <section aria-labelledby="delivery-check-heading" className="card mt-6 p-4 sm:p-5" data-testid="delivery-check">
      <h2 id="delivery-check-heading" className="flex items-center gap-2 text-base font-semibold">
        <TruckIcon className="h-5 w-5 text-wood-600" /> Check delivery
      </h2>
      {madeToOrder ? (
        <p className="mt-2 text-sm text-stone-700" data-testid="made-to-order">
          <strong className="font-semibold">Made to order:</strong> this piece is made for you once you order it,{" "}
          {`so delivery takes at least ${MADE_TO_ORDER_DAYS.min}-${MADE_TO_ORDER_DAYS.max} business days.`}
        </p>
      ) : null}
      <Form method="get" replace preventScrollReset className="mt-3 flex flex-wrap items-start gap-2">
        {tab ? <input type="hidden" name="tab" value={tab} /> : null}
        <div className="min-w-0 flex-1">
          <FormField id={id} label="Pincode" error={error}>
            <input
              id={id}
              name="pincode"
              inputMode="numeric"
              autoComplete="postal-code"
              placeholder="6-digit pincode"
              maxLength={6}
              pattern={PINCODE_PATTERN}
              title={DELIVERY_MESSAGES.pincode}
              required
              defaultValue={check.pincode ?? ""}
              key={check.pincode ?? ""}
              className="field-input"
              {...fieldA11y(id, error)}
            />
          </FormField>
        </div>
        <button type="submit" className="btn-secondary mt-6" disabled={busy}>
          {busy ? "Checking..." : "Check"}
        </button>
      </Form>
      {quote ? (
        <div role="status" className="mt-3 text-sm" data-testid="delivery-answer">
          {quote.serviceable && quote.deliveryBy && quote.days ? (
            <>
              <p className="font-semibold text-green-800">Delivery by {formatLongDate(dateAtNoonInIndia(quote.deliveryBy))}</p>
              <p className="text-stone-600">
                {quote.days.min}-{quote.days.max} business days to {quote.city}, {quote.state} ({quote.pincode})
              </p>
              <p className={quote.cod ? "text-stone-700" : "text-amber-800"}>
                {quote.cod ? "Cash on delivery available" : "Cash on delivery is not available here: pay online"}
              </p>
            </>
          ) : (
            <p className="font-semibold text-red-800">
              {DELIVERY_MESSAGES.notServed(quote.pincode)} ({quote.city}, {quote.state})
            </p>
          )}
        </div>
      ) : null}
    </section>
  );
}
