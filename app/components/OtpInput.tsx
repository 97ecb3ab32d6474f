import type { ClipboardEvent, FormEvent, KeyboardEvent } from "react";
import { useRef } from "react";
import { OTP_LENGTH } from "~/utils/account-fields";
import { useHydrated } from "~/hooks/useHydrated";

/**
 * Four single-digit boxes that post as four `otp` fields (or `name`; the server joins them), so
 * they work as a plain form without JavaScript. With it: a digit moves focus on, backspace in an
 * empty box moves back, and pasting 4 digits fills every box (docs/product.md, Sign-up and OTP).
 */
export function OtpInput({
  error,
  describedBy,
  name = "otp",
  legend = `Enter the ${OTP_LENGTH}-digit OTP`,
  autoFocus = true,
}: {
  error?: string;
  describedBy?: string;
  name?: string;
  legend?: string;
  /** the first box takes the focus when the page opens (the code is what it waits for) */
  autoFocus?: boolean;
}) {
  const boxes = useRef<(HTMLInputElement | null)[]>([]);
  // Without JavaScript each box takes one digit (maxLength). With it, a box may receive the
  // whole code at once (the phone's one-time-code autofill), which is spread over the boxes.
  const hydrated = useHydrated();
  const focus = (index: number) => boxes.current[Math.max(0, Math.min(OTP_LENGTH - 1, index))]?.focus();

  const onInput = (index: number) => (event: FormEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const digits = input.value.replace(/\D/g, "");
    if (digits.length > 1) {
      digits
        .slice(0, OTP_LENGTH - index)
        .split("")
        .forEach((digit, i) => {
          const box = boxes.current[index + i];
          if (box) box.value = digit;
        });
      focus(index + digits.length);
      return;
    }
    input.value = digits;
    if (digits && index < OTP_LENGTH - 1) focus(index + 1);
  };

  const onKeyDown = (index: number) => (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Backspace" && !event.currentTarget.value && index > 0) {
      event.preventDefault();
      focus(index - 1);
    } else if (event.key === "ArrowLeft") focus(index - 1);
    else if (event.key === "ArrowRight") focus(index + 1);
  };

  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    const text = event.clipboardData.getData("text").trim().slice(0, OTP_LENGTH);
    event.preventDefault();
    if (text.length !== OTP_LENGTH || !/^\d+$/.test(text)) return;
    text.split("").forEach((digit, i) => {
      const box = boxes.current[i];
      if (box) box.value = digit;
    });
    focus(OTP_LENGTH - 1);
  };

  return (
    <fieldset aria-describedby={describedBy}>
      <legend className="field-label text-center">{legend}</legend>
      <div className="mt-2 flex justify-center gap-3">
        {Array.from({ length: OTP_LENGTH }, (_, i) => (
          <input
            key={i}
            ref={(el) => {
              boxes.current[i] = el;
            }}
            name={name}
            type="text"
            inputMode="numeric"
            pattern="[0-9]"
            maxLength={hydrated ? undefined : 1}
            autoComplete={i === 0 ? "one-time-code" : "off"}
            aria-label={`Digit ${i + 1} of ${OTP_LENGTH}`}
            aria-invalid={error ? true : undefined}
            autoFocus={autoFocus && i === 0}
            onInput={onInput(i)}
            onKeyDown={onKeyDown(i)}
            onPaste={onPaste}
            onFocus={(e) => e.currentTarget.select()}
            className="field-input h-14 w-14 text-center font-display text-2xl"
          />
        ))}
      </div>
    </fieldset>
  );
}
