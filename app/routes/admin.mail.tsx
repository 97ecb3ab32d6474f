// Admin: the mail outbox. How many mails wait to be sent, and the mails that failed for good (a
// refused address, or too many tries), with the reason; 'Send again' puts one back in the queue
// (audited), 'Send all failed again' every one that can be. A mail that carried a code or a reset
// link cannot (it expired; its body is gone). The outbox and its worker: app/lib/outbox.server.ts.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { AdminTable, EmptyRow, ListError } from "~/components/AdminUI";
import { FormBanner } from "~/components/FormBanner";
import { pageAction } from "~/lib/form.server";
import { parseWith } from "~/lib/http.server";
import { redirectWithToast } from "~/lib/toast.server";
import { getMailOutbox, sendAllFailedMailsAgain, sendFailedMailAgain } from "~/models/admin-mail.server";
import { adminForm, formActor, loadList } from "~/web/admin.server";
import { requireStaff } from "~/web/staff.server";
import type { RoutePermissions } from "~/utils/staff-permissions";
import { formatDateTime } from "~/utils/dates";
import { useIsPending } from "~/hooks/useIsPending";
import { IdSchema } from "~/utils/schemas";

export const handle = { section: "Mail" };

export const permissions = {
  loader: "mail.resend",
  action: { retry: "mail.resend", "retry-all": "mail.resend" },
} satisfies RoutePermissions;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireStaff(request, permissions.loader);
  return loadList(() => getMailOutbox());
}

const SendAgainSchema = z.object({ mailId: IdSchema });

export async function action({ request }: ActionFunctionArgs) {
  return pageAction(
    request,
    {
      intents: {
        "retry-all": async () => {
          const count = await sendAllFailedMailsAgain(formActor(request));
          return redirectWithToast(request, "/admin/mail", {
            type: "success",
            title: count === 1 ? "1 mail queued again" : `${count} mails queued again`,
            description: "They go out in a moment; any that fail again come back here.",
          });
        },
        retry: async (form) => {
          const input = parseWith(SendAgainSchema, { mailId: form.get("mailId") ?? undefined });
          await sendFailedMailAgain(input.mailId, formActor(request));
          return redirectWithToast(request, "/admin/mail", {
            type: "success",
            title: `Mail #${input.mailId} queued again`,
            description: "It goes out in a moment; if it fails again, it comes back here.",
          });
        },
      },
    },
    { read: adminForm(["intent", "mailId"], permissions.action) },
  );
}

function SendAgain({ id, recipient }: { id: number; recipient: string }) {
  const busy = useIsPending({ state: "submitting", intent: "retry" });
  return (
    <Form method="post">
      <input type="hidden" name="mailId" value={id} />
      <button
        type="submit"
        name="intent"
        value="retry"
        className="btn-secondary whitespace-nowrap px-3 py-1.5 text-sm"
        disabled={busy}
        aria-label={`Send mail #${id} to ${recipient} again`}
      >
        Send again
      </button>
    </Form>
  );
}

function SendAllAgain({ count }: { count: number }) {
  const busy = useIsPending({ state: "submitting", intent: "retry-all" });
  return (
    <Form method="post" className="mt-3">
      <button type="submit" name="intent" value="retry-all" className="btn-secondary px-3 py-1.5 text-sm" disabled={busy}>
        Send all failed again ({count})
      </button>
    </Form>
  );
}

function Count({ label, value, tone }: { label: string; value: number; tone: string }) {
  return (
    <div className="rounded-xl border border-sand-200 bg-white p-3 sm:p-4">
      <dt className="text-xs text-stone-600 sm:text-sm">{label}</dt>
      <dd className={`mt-1 text-2xl font-semibold ${tone}`}>{value}</dd>
    </div>
  );
}

export default function AdminMail() {
  const { list, error } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  if (error !== null) return <ListError message={error} />;
  const { counts, failed, resendable } = list;
  return (
    <div>
      <dl className="grid grid-cols-3 gap-2 sm:gap-3" aria-label="The outbox">
        <Count label="Waiting to be sent" value={counts.pending} tone="text-stone-900" />
        <Count label="Being sent" value={counts.sending} tone="text-stone-900" />
        <Count label="Failed" value={counts.failed} tone={counts.failed > 0 ? "text-red-700" : "text-stone-900"} />
      </dl>
      <div className="mt-4">
        <FormBanner message={result?.formError} />
      </div>
      <h2 className="mt-6 font-display text-lg font-semibold">Failed mails</h2>
      <p className="mt-1 text-sm text-stone-600">
        Mails the mail server refused for good (an address that does not exist) or that failed too many times. Check the address, then send
        again. A mail that carried a sign-up code or a reset link cannot be sent again: it expired, and the customer can ask for a new one.
      </p>
      {resendable > 0 ? <SendAllAgain count={resendable} /> : null}
      <div className="mt-3">
        <AdminTable label="Failed mails" head={["Mail", "To", "Subject", "Tries", "Why it failed", "Queued", "Actions"]}>
          {failed.length === 0 ? (
            <EmptyRow colSpan={7}>No failed mails.</EmptyRow>
          ) : (
            failed.map((m) => (
              <tr key={m.id} data-testid="failed-mail" className="align-top">
                <td className="px-4 py-3 font-medium">#{m.id}</td>
                <td className="min-w-48 break-words px-4 py-3">{m.recipient}</td>
                <td className="min-w-48 px-4 py-3">{m.subject}</td>
                <td className="whitespace-nowrap px-4 py-3">
                  {m.attempts} {m.attempts === 1 ? "try" : "tries"}
                </td>
                <td className="min-w-56 max-w-sm break-words px-4 py-3 text-sm text-red-800">{m.lastError ?? "Unknown"}</td>
                <td className="whitespace-nowrap px-4 py-3 text-sm">{formatDateTime(m.createdAt)}</td>
                <td className="px-4 py-3">
                  {m.canSendAgain ? (
                    <SendAgain id={m.id} recipient={m.recipient} />
                  ) : (
                    <span className="text-sm text-stone-600">Code or link: not sent again</span>
                  )}
                </td>
              </tr>
            ))
          )}
        </AdminTable>
      </div>
    </div>
  );
}
