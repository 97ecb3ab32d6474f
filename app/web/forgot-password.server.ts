// A 'Forgot password' page's loader and action (a customer's or a staff member's): the email
// asked for, the reset link mailed by `askForReset` when the email has an account, and the same
// answer either way (a redirect to the page with ?sent=1), so the page never tells who has one.
import { redirect } from "@remix-run/node";
import { pageAction } from "~/lib/form.server";
import { parseWith } from "~/lib/http.server";
import { publicOrigin } from "~/lib/mail.server";
import type { Client } from "~/lib/rate-limit.server";
import { clientOf } from "~/lib/rate-limit.server";
import { EmailOnlySchema } from "~/utils/account-schemas";

export function forgotPasswordLoader(request: Request) {
  return { sent: new URL(request.url).searchParams.get("sent") === "1" };
}

/** `askForReset` gets the link's origin from configuration, never from the request. */
export function forgotPasswordAction(
  request: Request,
  askForReset: (email: string, origin: string, client: Client) => Promise<void>,
  page: string,
) {
  return pageAction(
    request,
    async (form) => {
      const { email } = parseWith(EmailOnlySchema, { email: form.get("email") ?? "" });
      await askForReset(email, publicOrigin(), clientOf(request));
      return redirect(`${page}?sent=1`);
    },
    { echo: ["email"], unexpected: "An error occurred. Please try again." },
  );
}
