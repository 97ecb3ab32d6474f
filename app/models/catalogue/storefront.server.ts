// The catalogue reads of the storefront's pages (the root's footer, home, category and product
// pages, the product page's reviews), kept while the data generation is current (lib/generation-cache.server): every page a
// visitor with a cookie opens asks for them again, and they change only when the staff write.
import { whileCurrent } from "~/lib/generation-cache.server";
import type { RowWindow } from "~/lib/paging.server";
import { categoriesOrDefaults, getCategoryById, getCategoryBySlug, listCategories } from "./categories.server";
import { getItemBySlug, listCategoryItemsPage, listFeatured, listRelated } from "./products.server";
import { productReviews } from "~/models/reviews/read.server";
import type { ReviewListQuery } from "~/utils/review-schemas";
import { db } from "~/lib/db.server";
import { variantsOf } from "./variants.server";
import type { FilteredQuery } from "./facets.server";
import { facetsOf, knownChoice, withChosen } from "./facets.server";
import type { CategoryQuery } from "~/utils/catalogue-schemas";
import type { OptionChoice } from "~/utils/option-filters";
import { hasChoice } from "~/utils/option-filters";
import { cardsWithVariants, cardVariants } from "./variant-lists.server";
import type { Item } from "~/utils/catalogue";

const variantSummaries = whileCurrent((itemIds: number[]) => cardVariants(db, itemIds));

const categories = whileCurrent(() => listCategories());

export const storefront = {
  categories,
  /** the categories, or the built-in defaults (categoriesOrDefaults) */
  categoriesOrDefaults: () => categoriesOrDefaults(categories),
  categoryBySlug: whileCurrent((slug: string) => getCategoryBySlug(slug)),
  categoryById: whileCurrent((id: number) => getCategoryById(id)),
  categoryItemsPage: whileCurrent((categoryId: number, query: FilteredQuery, window: RowWindow) =>
    listCategoryItemsPage(categoryId, query, window),
  ),
  /** a category's option filters with their counts under these filters (facets.server; the sort plays no part) */
  categoryFacets: whileCurrent((categoryId: number, query: FilteredQuery) => facetsOf(db, { categoryId }, query)),
  itemBySlug: whileCurrent((slug: string) => getItemBySlug(slug)),
  /** a list's cards, with 'From ₹X' and the first option's values of a product sold in several variants */
  cards: async (items: Item[]) => cardsWithVariants(items, await variantSummaries(items.map((i) => i.id))),
  /** a product's options and variants (variants.server) */
  variants: whileCurrent((itemId: number) => variantsOf(db, itemId)),
  featured: whileCurrent((limit: number) => listFeatured(limit)),
  related: whileCurrent((slug: string) => listRelated(slug)),
  /** a product's reviews page as everyone sees it (who is looking is reviewViewer's) */
  reviews: whileCurrent((itemId: number, query: ReviewListQuery) => productReviews(itemId, query)),
};

const UNFILTERED: FilteredQuery = { sort: "default", availability: [], price: [], featured: undefined };

/**
 * A category page's products and option filters: the chosen values its products have (any other
 * is ignored), the page of products under every filter, and each option's values counted under the
 * other filters (facets.server). Without any filter the counts are the category's own, read once.
 */
export async function categoryListing(categoryId: number, query: CategoryQuery, choice: OptionChoice, window: RowWindow) {
  const all = await storefront.categoryFacets(categoryId, UNFILTERED);
  const options = knownChoice(choice, all);
  const filters: FilteredQuery = { ...UNFILTERED, availability: query.availability, price: query.price, featured: query.featured, options };
  const active = query.availability.length > 0 || query.price.length > 0 || Boolean(query.featured) || hasChoice(options);
  const [list, counted] = await Promise.all([
    storefront.categoryItemsPage(categoryId, { ...query, options }, window),
    active ? storefront.categoryFacets(categoryId, filters) : all,
  ]);
  return { list, options, facets: withChosen(all, counted, options), filtersActive: active };
}
