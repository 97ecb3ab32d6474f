import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { pageAction } from "~/lib/form.server";
import { safeRedirectPath } from "~/lib/http.server";
import { signOut } from "~/web/sign-in.server";

// Logging out is a POST (a link or an image elsewhere cannot sign anyone out).
export const loader = () => redirect("/");

export async function action({ request }: ActionFunctionArgs) {
  return pageAction(request, (form) =>
    signOut(request, safeRedirectPath(form.get("redirectTo"), "/"), { type: "success", title: "You have been logged out" }),
  );
}
