import type { LoaderFunctionArgs } from "@remix-run/node";
import { publicApiHandler } from "~/lib/api.server";
import { otherMethods } from "~/lib/api-params.server";
import { searchForApi } from "~/web/search.server";

/**
 * GET `?q=&page=&pageSize=` (and the category page's `sort`, `availability`, `price`, `featured`):
 * one page of the products matching every word of q, most relevant first, with the `total`
 * (docs/api.md, Search). 400 for a missing, repeated, too long or wordless q, a bad page or
 * pageSize, or an unknown sort or filter. The header's suggestions call it with pageSize=6. Public
 * and the same for everyone: cacheable like the rest of the catalogue API (ETag, max-age 60; ADR 0015).
 */
export const loader = ({ request }: LoaderFunctionArgs) => publicApiHandler(request, () => searchForApi(request));
export const action = otherMethods(["GET"]);
