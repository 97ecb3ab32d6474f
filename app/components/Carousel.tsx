import type { ReactNode } from "react";
import { useCallback, useEffect, useState } from "react";
import { useHydrated } from "~/hooks/useHydrated";
import { ChevronLeftIcon, ChevronRightIcon } from "./icons";

interface Props<T> {
  slides: T[];
  label: string;
  intervalMs?: number;
  renderSlide: (slide: T, index: number, active: boolean) => ReactNode;
  className?: string;
}

/**
 * Auto-advances (default 3000 ms), pauses on hover and focus, wraps around, 500 ms fade.
 * Arrows and dots only with more than one slide. Without JavaScript the slides sit side by
 * side in a scroll-snap strip, so every slide stays readable.
 */
/** A round arrow button at the slide's middle, shown from the small breakpoint up. */
const ARROW =
  "absolute top-1/2 z-10 hidden h-11 w-11 sm:flex -translate-y-1/2 items-center justify-center rounded-full bg-white/80 text-ink shadow";

export function Carousel<T>({ slides, label, intervalMs = 3000, renderSlide, className = "" }: Props<T>) {
  const hydrated = useHydrated();
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);
  const count = slides.length;
  // Slides fade only once one has moved: as hydration stacks the server's strip, the hidden slides
  // turn transparent at once (a fade then would show them over the first for half a second).
  const [moved, setMoved] = useState(false);
  const go = useCallback(
    (next: number) => {
      setMoved(true);
      setIndex(((next % count) + count) % count);
    },
    [count],
  );

  useEffect(() => {
    if (!hydrated || paused || count < 2) return;
    const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    if (reduce) return;
    const timer = setTimeout(() => go(index + 1), intervalMs);
    return () => clearTimeout(timer);
  }, [hydrated, paused, index, count, intervalMs, go]);

  // One structure before and after hydration, only its classes change: the server's slides (and
  // the hero image, the page's largest paint) are kept as they are, never drawn anew once the
  // scripts run (a new image element is a new largest paint, after the scripts).
  return (
    <section
      aria-roledescription="carousel"
      aria-label={label}
      className={`relative ${hydrated ? "overflow-hidden" : ""} ${className}`}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <div className={hydrated ? "relative h-full" : "flex h-full snap-x snap-mandatory overflow-x-auto"}>
        {slides.map((s, i) => (
          <div
            key={i}
            id={`slide-${i + 1}`}
            aria-roledescription="slide"
            aria-label={`${i + 1} of ${count}`}
            aria-hidden={hydrated ? i !== index : undefined}
            className={
              !hydrated
                ? "relative h-full w-full shrink-0 snap-start"
                : [
                    "absolute inset-0",
                    moved ? "transition-opacity duration-500" : "",
                    i === index ? "opacity-100" : "pointer-events-none opacity-0",
                  ].join(" ")
            }
          >
            {renderSlide(s, i, !hydrated || i === index)}
          </div>
        ))}
      </div>
      {hydrated && count > 1 ? (
        <>
          <button type="button" onClick={() => go(index - 1)} aria-label="Previous slide" className={`${ARROW} left-3 hover:bg-white`}>
            <ChevronLeftIcon className="h-5 w-5" />
          </button>
          <button type="button" onClick={() => go(index + 1)} aria-label="Next slide" className={`${ARROW} right-3 hover:bg-white`}>
            <ChevronRightIcon className="h-5 w-5" />
          </button>
          <div className="absolute bottom-4 left-1/2 z-10 flex -translate-x-1/2 gap-1">
            {slides.map((_, i) => (
              <button
                key={i}
                type="button"
                onClick={() => go(i)}
                aria-label={`Go to slide ${i + 1}`}
                aria-current={i === index}
                className="flex h-11 w-8 items-center justify-center"
              >
                <span className={`block h-2.5 rounded-full transition-all ${i === index ? "w-6 bg-white" : "w-2.5 bg-white/60"}`} />
              </button>
            ))}
          </div>
        </>
      ) : null}
    </section>
  );
}
