// The checkout's pincode, with JavaScript (ADR 0017): once six digits are typed, GET /api/delivery
// fills City and State from the pincode directory and says by when the shop delivers there (or
// that it does not yet). Without JavaScript nothing changes: the server checks the same on Place Order.
import { useEffect, useState } from "react";
import { formatLongDate } from "~/utils/dates";
import type { DeliveryQuote } from "~/utils/delivery";
import { DELIVERY_MESSAGES, isPincode } from "~/utils/delivery";
import { dateAtNoonInIndia } from "~/utils/delivery-dates";

type Note = { tone: "ok" | "warn"; text: string } | null;

function noteFor(quote: DeliveryQuote): Note {
  if (!quote.serviceable || !quote.deliveryBy) return { tone: "warn", text: `${DELIVERY_MESSAGES.notServed(quote.pincode)}.` };
  const cod = quote.cod ? "Cash on delivery available." : "Cash on delivery is not available here: pay online.";
  const by = formatLongDate(dateAtNoonInIndia(quote.deliveryBy));
  return { tone: "ok", text: `Delivery by ${by} to ${quote.city}, ${quote.state}. ${cod}` };
}

/** Reads `{prefix}-pincode` and fills `{prefix}-city` and `{prefix}-state` of the same form. */
export function PincodeAutofill({ prefix }: { prefix: string }) {
  const [note, setNote] = useState<Note>(null);
  useEffect(() => {
    const pincode = document.getElementById(`${prefix}-pincode`) as HTMLInputElement | null;
    if (!pincode) return;
    // The pincode the form starts with (the last order's) is not looked up: its city stays as typed then.
    let asked = pincode.value.replace(/\s/g, "");
    let controller: AbortController | null = null;
    const lookUp = async () => {
      const value = pincode.value.replace(/\s/g, "");
      if (value === asked) return;
      asked = value;
      controller?.abort();
      if (!isPincode(value)) return setNote(null);
      controller = new AbortController();
      try {
        const response = await fetch(`/api/delivery?pincode=${value}`, { signal: controller.signal });
        if (response.status === 404) return setNote({ tone: "warn", text: DELIVERY_MESSAGES.unknown(value) });
        if (!response.ok) return setNote(null);
        const quote = (await response.json()) as DeliveryQuote;
        for (const [field, text] of [
          ["city", quote.city],
          ["state", quote.state],
        ] as const) {
          const input = document.getElementById(`${prefix}-${field}`) as HTMLInputElement | null;
          if (input) input.value = text;
        }
        setNote(noteFor(quote));
      } catch {
        // Aborted by newer typing, or offline: the server checks the pincode on Place Order.
      }
    };
    pincode.addEventListener("input", lookUp);
    // Once the form is sent, the server's answer (beside the field) speaks instead.
    const clear = () => setNote(null);
    pincode.form?.addEventListener("submit", clear);
    return () => {
      pincode.removeEventListener("input", lookUp);
      pincode.form?.removeEventListener("submit", clear);
      controller?.abort();
    };
  }, [prefix]);
  return (
    <p
      aria-live="polite"
      data-testid="pincode-note"
      className={`text-sm sm:col-span-2 ${note ? "" : "sr-only"} ${note?.tone === "warn" ? "text-amber-800" : "text-stone-700"}`}
    >
      {note?.text ?? ""}
    </p>
  );
}
