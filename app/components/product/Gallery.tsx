// The product page's pictures. With photos: the chosen one as a <picture> (AVIF, then WebP, at the
// width the layout needs: full width on a phone, half the page from 1024 px), never lazy (it is the
// page's largest image), and thumbnails below it. A thumbnail is a plain link (?photo=N, the other
// query parameters kept), so without JavaScript choosing one loads the page showing it; with
// JavaScript it switches in place, and the arrow keys and a swipe move between photos. Without
// photos: the product's drawn illustration, as it always was.
import { Link, useLocation } from "@remix-run/react";
import type { KeyboardEvent, TouchEvent } from "react";
import { useEffect, useRef, useState } from "react";
import type { PhotoView } from "~/utils/photos";
import { renditionPath, renditionSrcSet } from "~/utils/photos";
import { HIGH_PRIORITY } from "~/utils/images";

/** The main photo's displayed width: the page's padding on a phone, half the 80rem container beside the details from 1024 px. */
export const MAIN_SIZES =
  "(min-width: 1280px) 600px, (min-width: 1024px) calc(50vw - 4.5rem), (min-width: 640px) calc(100vw - 3rem), calc(100vw - 2rem)";

const MAIN_FRAME =
  "relative overflow-hidden rounded-2xl bg-sand-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-wood-600";
const THUMB = "block min-h-11 overflow-hidden rounded-lg border-2";

/** A swipe is a horizontal move of at least this many pixels. */
const SWIPE_PX = 40;

/** The photo a `?photo=N` asks for (1 first), or the first one. */
export function chosenPhoto(search: string, count: number): number {
  const n = Number(new URLSearchParams(search).get("photo"));
  return Number.isInteger(n) && n >= 1 && n <= count ? n - 1 : 0;
}

/** The page's address with ?photo=N (the other parameters kept, the first photo without it). */
function photoHref(search: string, index: number): string {
  const params = new URLSearchParams(search);
  if (index === 0) params.delete("photo");
  else params.set("photo", String(index + 1));
  const query = params.toString();
  return query ? `?${query}` : "?";
}

function FeaturedBadge() {
  return <span className="absolute left-4 top-4 rounded-full bg-wood-600 px-3 py-1 text-xs font-semibold text-white">Featured</span>;
}

export function Gallery({ title, imgPath, featured, photos }: { title: string; imgPath: string; featured: boolean; photos: PhotoView[] }) {
  const location = useLocation();
  const fromUrl = chosenPhoto(location.search, photos.length);
  const [current, setCurrent] = useState(fromUrl);
  const touchX = useRef<number | null>(null);
  // A new address (another product, or a thumbnail followed without JavaScript) shows what it names.
  useEffect(() => setCurrent(fromUrl), [fromUrl, photos]);

  if (photos.length === 0) {
    return (
      <div className="relative self-start overflow-hidden rounded-2xl bg-sand-100">
        <img src={imgPath} alt={title} width={800} height={600} {...HIGH_PRIORITY} className="aspect-[4/3] w-full object-cover" />
        {featured ? <FeaturedBadge /> : null}
      </div>
    );
  }

  const index = Math.min(current, photos.length - 1);
  const photo = photos[index]!;
  const go = (to: number) => setCurrent((to + photos.length) % photos.length);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "ArrowRight") go(index + 1);
    else if (event.key === "ArrowLeft") go(index - 1);
    else return;
    event.preventDefault();
  };
  const onTouchEnd = (event: TouchEvent) => {
    const start = touchX.current;
    touchX.current = null;
    const end = event.changedTouches[0]?.clientX;
    if (start === null || end === undefined || Math.abs(end - start) < SWIPE_PX) return;
    go(end < start ? index + 1 : index - 1);
  };
  const fallback = photo.widths.find((w) => w >= 640) ?? photo.widths[photo.widths.length - 1]!;

  return (
    <div className="self-start">
      <div
        className={MAIN_FRAME}
        role="group"
        aria-roledescription="gallery"
        aria-label={`${title}: photo ${index + 1} of ${photos.length}${photos.length > 1 ? ", use the arrow keys for the others" : ""}`}
        tabIndex={photos.length > 1 ? 0 : undefined}
        onKeyDown={photos.length > 1 ? onKeyDown : undefined}
        onTouchStart={(event) => (touchX.current = event.touches[0]?.clientX ?? null)}
        onTouchEnd={photos.length > 1 ? onTouchEnd : undefined}
        data-testid="gallery-main"
      >
        <picture key={photo.id}>
          <source type="image/avif" srcSet={renditionSrcSet(photo.base, photo.widths, "avif")} sizes={MAIN_SIZES} />
          <source type="image/webp" srcSet={renditionSrcSet(photo.base, photo.widths, "webp")} sizes={MAIN_SIZES} />
          <img
            src={renditionPath(photo.base, fallback, "webp")}
            alt={photo.alt}
            width={photo.width}
            height={photo.height}
            {...HIGH_PRIORITY}
            className="aspect-[4/3] w-full object-contain"
          />
        </picture>
        {featured ? <FeaturedBadge /> : null}
      </div>
      {photos.length > 1 ? (
        <ul className="mt-3 flex gap-2 overflow-x-auto" aria-label="Choose a photo">
          {photos.map((p, i) => (
            <li key={p.id} className="shrink-0">
              <Link
                to={photoHref(location.search, i)}
                replace
                preventScrollReset
                aria-current={i === index ? "true" : undefined}
                onClick={(event) => {
                  // With JavaScript: switch in place, no navigation (the loader need not run again).
                  if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
                  event.preventDefault();
                  setCurrent(i);
                }}
                className={`${THUMB} ${i === index ? "border-wood-600" : "border-transparent hover:border-sand-200"}`}
                data-testid="gallery-thumb"
              >
                <img
                  src={renditionPath(p.base, p.widths[0]!, "webp")}
                  alt={`${p.alt} (photo ${i + 1} of ${photos.length})`}
                  width={80}
                  height={60}
                  loading="lazy"
                  decoding="async"
                  className="h-15 w-20 bg-sand-100 object-cover"
                />
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
