// A dialog that is modal with JavaScript (`onClose` given: showModal, Escape closes it) and,
// without, rendered open by the server over a plain overlay that dims the page behind it.
import type { ReactNode } from "react";
import { useEffect, useRef } from "react";

export function ModalDialog({
  labelledBy,
  onClose,
  width,
  children,
}: {
  labelledBy: string;
  onClose?: () => void;
  width: string;
  children: (close: () => void) => ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (onClose && dialog && !dialog.open) dialog.showModal();
  }, [onClose]);
  return (
    <>
      {onClose ? null : <div className="fixed inset-0 z-40 bg-black/40" aria-hidden="true" />}
      <dialog
        ref={ref}
        open={onClose ? undefined : true}
        aria-labelledby={labelledBy}
        onClose={onClose}
        className={`fixed inset-0 z-50 m-auto ${width} rounded-xl bg-white p-6 shadow-2xl backdrop:bg-black/40`}
      >
        {children(() => ref.current?.close())}
      </dialog>
    </>
  );
}
