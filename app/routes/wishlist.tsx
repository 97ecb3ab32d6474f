import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { storefront } from "~/models/catalogue/storefront.server";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Link } from "~/components/Link";
import { FormBanner } from "~/components/FormBanner";
import { z } from "zod";
import { Pagination } from "~/components/Pagination";
import { ProductGrid } from "~/components/ProductCard";
import { pageAction } from "~/lib/form.server";
import { parseWith, safeRedirectPath } from "~/lib/http.server";
import { pageOf, parseListQuery, STOREFRONT_PAGE } from "~/lib/paging.server";
import { redirectWithToast, toastHeader } from "~/lib/toast.server";
import { listWishlistPage, removeFromWishlist, saveItem } from "~/models/wishlist.server";
import { asOwner, currentWishlistId } from "~/web/visitor.server";
import { IdSchema } from "~/utils/schemas";

export const meta: MetaFunction = () => [{ title: "Your Wishlist | Sagwan Living" }];

export async function loader({ request }: LoaderFunctionArgs) {
  // 24 a page, like the catalogue; a page that is not a page number, or past the last, is a 404.
  const paging = parseListQuery(request, STOREFRONT_PAGE);
  const { rows, info } = pageOf(paging, await listWishlistPage(await currentWishlistId(request), paging));
  return { items: await storefront.cards(rows), info };
}

const ItemSchema = z.object({ itemId: IdSchema });
const itemOf = (form: FormData) => parseWith(ItemSchema, { itemId: form.get("itemId") }).itemId;

export const action = ({ request }: ActionFunctionArgs) =>
  pageAction(request, {
    intents: {
      add: (form) =>
        wishlistAnswer(request, form, async () => {
          const saved = await asOwner(request, "wishlists", (owner) => saveItem(owner, itemOf(form)));
          return { title: `${saved.title} saved to your wishlist`, headers: saved.headers };
        }),
      remove: (form) =>
        wishlistAnswer(request, form, async () => {
          await removeFromWishlist(await currentWishlistId(request), itemOf(form));
          return { title: "Removed from your wishlist" };
        }),
    },
  });

/** A wishlist form's change, answered: a redirect back with the toast (`redirectTo`), or `{ ok: true }` to a fetcher. */
async function wishlistAnswer(request: Request, form: FormData, change: () => Promise<{ title: string; headers?: Headers }>) {
  const { title, headers = new Headers() } = await change();
  const toast = { type: "success" as const, title };
  if (form.has("redirectTo")) {
    return redirectWithToast(request, safeRedirectPath(form.get("redirectTo"), "/wishlist"), toast, { headers });
  }
  headers.append("Set-Cookie", await toastHeader(request, toast));
  return data({ ok: true }, { headers });
}

export default function WishlistPage() {
  const { items, info } = useLoaderData<typeof loader>();
  // A plain post refused (a full wishlist, a product gone) shows this page with the reason.
  const actionData = useActionData<typeof action>();
  const formError = actionData && "formError" in actionData ? actionData.formError : null;
  // Removing the last piece of a page leads to the page before it (that page no longer exists).
  const pageAfterRemoval = items.length === 1 && info.page > 1 ? info.page - 1 : info.page;
  return (
    <section className="container-page py-10">
      <h1 className="text-3xl font-semibold sm:text-4xl">Your Wishlist</h1>
      <FormBanner message={formError} className="mt-4" />
      {info.total === 0 ? (
        <div className="mt-8 rounded-2xl border border-dashed border-sand-200 bg-white py-16 text-center">
          <p className="text-lg">Your wishlist is empty.</p>
          <p className="mt-2 text-stone-600">Save pieces you love with 'Add to Wishlist' on any product page.</p>
          <Link to="/categories" className="btn-primary mt-6">
            Browse Categories
          </Link>
        </div>
      ) : (
        <>
          <p className="mt-2 text-stone-600">
            {info.total} saved {info.total === 1 ? "piece" : "pieces"}
          </p>
          <div className="mt-8">
            <ProductGrid
              items={items}
              renderActions={(item) => (
                <Form method="post" preventScrollReset>
                  <input type="hidden" name="intent" value="remove" />
                  <input type="hidden" name="itemId" value={item.id} />
                  <input
                    type="hidden"
                    name="redirectTo"
                    value={pageAfterRemoval > 1 ? `/wishlist?page=${pageAfterRemoval}` : "/wishlist"}
                  />
                  <button type="submit" className="btn-ghost -mx-3 text-sm text-red-700" aria-label={`Remove ${item.title} from wishlist`}>
                    Remove
                  </button>
                </Form>
              )}
            />
          </div>
          <Pagination info={info} label="Wishlist" noun={info.total === 1 ? "piece" : "pieces"} />
        </>
      )}
    </section>
  );
}
