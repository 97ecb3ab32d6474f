// Unknown API paths answer the JSON error of docs/api.md, not the HTML 404 page.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiHandler } from "~/lib/api.server";
import { AppError } from "~/lib/errors.server";
import { assertSameOrigin } from "~/lib/http.server";

const notFound = ({ request }: LoaderFunctionArgs | ActionFunctionArgs) =>
  apiHandler(async () => {
    assertSameOrigin(request);
    throw new AppError(404, "No such API path");
  });

export const loader = notFound;
export const action = notFound;
