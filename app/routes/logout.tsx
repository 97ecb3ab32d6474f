import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { signOut } from "~/web/auth.server";
import { formAction } from "~/lib/form.server";
import { readForm, safeRedirectPath } from "~/lib/http.server";

// Logging out is a POST (a link or an image elsewhere cannot sign anyone out).
export const loader = () => redirect("/");

export async function action({ request }: ActionFunctionArgs) {
  return formAction(async () => {
    const form = await readForm(request);
    return signOut(request, safeRedirectPath(form.get("redirectTo"), "/"), { type: "success", title: "You have been logged out" });
  });
}
