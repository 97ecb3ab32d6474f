// Any other /admin/… path: the guard first (without the admin flag it is sent to /, as every
// admin path is), then 'Not Found' inside the admin frame.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { adminOtherMethods } from "~/web/admin.server";
import { requireAdmin } from "~/web/visitor.server";
import { notFoundPage } from "~/lib/errors.server";

export const handle = { section: "Not Found" };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  throw notFoundPage("There is no such page in the admin area.");
}

export const action = adminOtherMethods(["GET"]);

export default function AdminNotFound() {
  return null;
}
