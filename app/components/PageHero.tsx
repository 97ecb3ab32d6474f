import type { ReactNode } from "react";

/** The calm banner at the top of content pages: a heading and an optional line under it. */
export function PageHero({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <section className="border-b border-sand-200 bg-wood-50">
      <div className="container-page py-12 sm:py-16">
        <h1 className="text-3xl font-semibold sm:text-4xl">{title}</h1>
        {children ? <div className="mt-3 max-w-2xl text-lg text-stone-600">{children}</div> : null}
      </div>
    </section>
  );
}
