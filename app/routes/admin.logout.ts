// The admin Logout button: a POST that clears the admin flag (a signed-in customer stays
// signed in) and goes to / (docs/product.md).
import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { adminForm } from "~/web/admin.server";
import { revokeAdmin } from "~/web/sign-in.server";
import { apiHandler } from "~/lib/api.server";

export const action = ({ request }: ActionFunctionArgs) =>
  apiHandler(async () => {
    await adminForm([])(request);
    return redirect("/", { status: 303, headers: { "Set-Cookie": await revokeAdmin(request) } });
  });

export async function loader() {
  return redirect("/");
}
