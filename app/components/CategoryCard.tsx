import { Link } from "./Link";
import type { Category } from "~/utils/catalogue";

const CARD = "group flex flex-col overflow-hidden rounded-2xl border border-sand-200 bg-white shadow-sm transition hover:shadow-md";

export function CategoryCard({ category, eager = false }: { category: Category; eager?: boolean }) {
  return (
    <article className={CARD}>
      <div className="aspect-[4/3] overflow-hidden bg-sand-100">
        <img
          src={category.imgPath}
          alt={category.title}
          width={800}
          height={600}
          loading={eager ? "eager" : "lazy"}
          decoding="async"
          className="h-full w-full object-cover transition duration-500 group-hover:scale-[1.03]"
        />
      </div>
      <div className="flex flex-1 flex-col p-5">
        <h3 className="text-xl font-semibold">{category.title}</h3>
        <p className="mt-2 flex-1 text-sm text-stone-600">{category.description}</p>
        <Link to={`/category/${category.slug}`} className="btn-secondary mt-4 self-start" prefetch="intent">
          View Collection
        </Link>
      </div>
    </article>
  );
}
