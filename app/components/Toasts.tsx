import { useEffect, useState } from "react";
import type { Toast, ToastType } from "~/utils/toast";
import { TOAST_DURATION_MS, TOAST_LIMIT } from "~/utils/toast";
import { CloseIcon } from "./icons";

const STYLES: Record<ToastType, string> = {
  default: "border-sand-200 bg-white text-ink",
  success: "border-green-300 bg-green-50 text-green-900",
  warning: "border-amber-300 bg-amber-50 text-amber-900",
  error: "border-red-300 bg-red-50 text-red-900",
  info: "border-sky-300 bg-sky-50 text-sky-900",
};

/**
 * Bottom-left stack, at most 3. Without JavaScript a CSS animation hides each toast after
 * 5 s; with JavaScript they are removed from the list and can be dismissed.
 */
export function Toasts({ toasts }: { toasts: Toast[] }) {
  const [visible, setVisible] = useState<Toast[]>(toasts.slice(-TOAST_LIMIT));

  useEffect(() => {
    if (toasts.length === 0) return;
    setVisible((current) => {
      const known = new Set(current.map((t) => t.id));
      return [...current, ...toasts.filter((t) => !known.has(t.id))].slice(-TOAST_LIMIT);
    });
  }, [toasts]);

  useEffect(() => {
    if (visible.length === 0) return;
    const timer = setTimeout(() => setVisible((current) => current.slice(1)), TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [visible]);

  return (
    <div
      aria-live="polite"
      className="pointer-events-none print:hidden fixed bottom-4 left-4 z-50 flex w-[calc(100%-2rem)] max-w-sm flex-col gap-2"
    >
      {visible.map((t) => (
        <div
          key={t.id}
          role={t.type === "error" ? "alert" : "status"}
          data-toast-type={t.type}
          className={`toast pointer-events-auto flex items-start gap-3 rounded-xl border p-4 shadow-lg ${STYLES[t.type]}`}
        >
          <div className="flex-1">
            <p className="text-sm font-semibold">{t.title}</p>
            {t.description ? <p className="mt-1 text-sm opacity-90">{t.description}</p> : null}
          </div>
          <button
            type="button"
            className="-m-2 inline-flex h-9 w-9 items-center justify-center rounded-md opacity-70 hover:opacity-100"
            aria-label="Dismiss"
            onClick={() => setVisible((c) => c.filter((x) => x.id !== t.id))}
          >
            <CloseIcon className="h-4 w-4" />
          </button>
        </div>
      ))}
    </div>
  );
}
