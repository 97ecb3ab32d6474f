// The product page's pictures. With photos: the chosen one as a <picture> (AVIF, then WebP, at the
// width the layout needs: the page's width less its padding on a phone, half the page beside the
// details from 1024 px), never lazy (it is the page's largest image), and thumbnails below it. A
// thumbnail is a plain link (?photo=N, the other query parameters kept), so without JavaScript
// choosing one loads the page showing it; with JavaScript it switches in place, and the arrow keys
// and a swipe move between photos. Without photos: the product's drawn illustration, as always.
import { useLocation } from "@remix-run/react";
import { useState } from "react";
import type { PhotoView } from "~/utils/photos";
import { HIGH_PRIORITY } from "~/utils/images";

/**
 * The main photo's displayed width: the column beside the details from 1024 px (at most about
 * 600 px in the 80rem container), else the page's width less its padding.
 */
export const MAIN_SIZES = "(min-width: 1024px) 600px, calc(100vw - 2rem)";

const FRAME = "relative overflow-hidden rounded-2xl bg-sand-100";

/** The photo a `?photo=N` asks for (1 first), or the first one. */
export function chosenPhoto(search: string, photos: readonly unknown[]): number {
  const n = Number(new URLSearchParams(search).get("photo")) - 1;
  return photos[n] ? n : 0;
}

/** The page's address with ?photo=N (the other parameters kept, the first photo without it). */
function photoHref(search: string, index: number): string {
  const params = new URLSearchParams(search);
  params.set("photo", String(index + 1));
  if (!index) params.delete("photo");
  return `?${params}`;
}

/** Where a touch began (one gallery per page): a swipe is a move of at least 40 px. */
let touchX = 0;

export function Gallery({ title, imgPath, featured, photos }: { title: string; imgPath: string; featured: boolean; photos: PhotoView[] }) {
  const { search } = useLocation();
  // The photo chosen in place, for the address it was chosen at: a new address shows what it names.
  const [chosen, choose] = useState<{ search?: string; index: number }>({ index: 0 });
  const count = photos.length;
  const index = chosen.search === search ? chosen.index : chosenPhoto(search, photos);
  const go = (to: number) => choose({ search, index: (to + count) % count });
  const badge = featured ? (
    <span className="absolute left-4 top-4 rounded-full bg-wood-600 px-3 py-1 text-xs font-semibold text-white">Featured</span>
  ) : null;

  if (!count) {
    return (
      <div className={`${FRAME} self-start`}>
        <img src={imgPath} alt={title} width={800} height={600} {...HIGH_PRIORITY} className="aspect-[4/3] w-full object-cover" />
        {badge}
      </div>
    );
  }
  const photo = photos[index]!;
  return (
    // Keys pressed on a thumbnail and swipes over the photo come up to here.
    <div
      className="self-start"
      onKeyDown={(event) => {
        const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
        if (step) {
          event.preventDefault();
          go(index + step);
        }
      }}
      onTouchStart={(event) => (touchX = event.touches[0]!.clientX)}
      onTouchEnd={(event) => {
        const moved = event.changedTouches[0]!.clientX - touchX;
        if (Math.abs(moved) > 40) go(index + (moved < 0 ? 1 : -1));
      }}
    >
      <div className={FRAME}>
        <picture key={photo.id}>
          <source type="image/avif" srcSet={photo.avif} sizes={MAIN_SIZES} />
          <source type="image/webp" srcSet={photo.webp} sizes={MAIN_SIZES} />
          <img
            src={photo.src}
            alt={photo.alt}
            width={photo.width}
            height={photo.height}
            {...HIGH_PRIORITY}
            className="aspect-[4/3] w-full object-contain"
          />
        </picture>
        {badge}
      </div>
      {count > 1 ? (
        <ul className="mt-3 flex gap-2 overflow-x-auto" aria-label="Photos">
          {photos.map((p, i) => (
            <li key={p.id} className="shrink-0">
              <a
                href={photoHref(search, i)}
                aria-current={i === index}
                onClick={(event) => {
                  // With JavaScript: switched in place, no navigation (nothing to load again).
                  if (!event.metaKey && !event.ctrlKey && !event.shiftKey) {
                    event.preventDefault();
                    go(i);
                  }
                }}
                className={`block rounded-lg border-2 ${i === index ? "border-wood-600" : "border-transparent"}`}
              >
                <img src={p.thumb} alt={p.alt} width={80} height={60} loading="lazy" className="h-15 w-20 object-cover" />
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
