import { MinusIcon, PlusIcon } from "./icons";
import { useHydrated } from "~/hooks/useHydrated";

interface Props {
  id: string;
  name?: string;
  label: string;
  value: number;
  min?: number;
  max?: number;
  onChange?: (value: number) => void;
  disabled?: boolean;
}

/**
 * Integer from min to max. Without JavaScript it is a plain number field; with JavaScript the
 * minus/plus buttons appear (disabled at the ends) and invalid typed values are ignored.
 */
const STEP_BUTTON = "flex h-11 w-11 items-center justify-center hover:bg-sand-100 disabled:opacity-40";
/** The number field without the browser's spin buttons (the steppers replace them). */
const NUMBER_FIELD = [
  "h-11 w-14 border-0 bg-transparent text-center text-base font-medium",
  "[appearance:textfield] focus:outline-2 focus:outline-wood-300 [&::-webkit-inner-spin-button]:appearance-none",
].join(" ");

export function QuantityInput({ id, name = "quantity", label, value, min = 1, max = 99, onChange, disabled }: Props) {
  const hydrated = useHydrated();
  const interactive = hydrated && onChange;
  const set = (next: number) => {
    if (Number.isInteger(next) && next >= min && next <= max) onChange?.(next);
  };
  return (
    <div className="inline-flex items-center rounded-lg border border-sand-200 bg-white">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      {interactive ? (
        <button
          type="button"
          className={`${STEP_BUTTON} rounded-l-lg`}
          aria-label="Decrease quantity"
          disabled={disabled || value <= min}
          onClick={() => set(value - 1)}
        >
          <MinusIcon className="h-4 w-4" />
        </button>
      ) : null}
      <input
        id={id}
        name={name}
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        step={1}
        required
        disabled={disabled}
        // controlled from the first render when the page follows it (React warns when a field
        // turns from uncontrolled to controlled); before hydration the browser edits it natively
        {...(onChange
          ? { value, onChange: (e: React.ChangeEvent<HTMLInputElement>) => set(Number(e.target.value)) }
          : { defaultValue: value })}
        className={NUMBER_FIELD}
      />
      {interactive ? (
        <button
          type="button"
          className={`${STEP_BUTTON} rounded-r-lg`}
          aria-label="Increase quantity"
          disabled={disabled || value >= max}
          onClick={() => set(value + 1)}
        >
          <PlusIcon className="h-4 w-4" />
        </button>
      ) : null}
    </div>
  );
}
