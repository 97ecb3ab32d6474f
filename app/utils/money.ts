// The one formatter of money and counts: en-IN, digits grouped the Indian way (₹1,23,456), no
// decimals.
//
// Written out by hand rather than with Intl.NumberFormat (ADR 0028): a
// browser's first Intl formatter loads its locale data, which took 15 ms of a fast machine's main
// thread (60 ms on a phone) while the page's scripts started, and every toLocaleString call makes
// a formatter again. The result is the same as en-IN's (tests compare the two), and the server and
// the browser agree by construction, whatever their ICU versions.

/** An integer's digits in Indian groups: the last three, then twos (12,34,567). */
function groupDigits(digits: string): string {
  if (digits.length <= 3) return digits;
  const head = digits.slice(0, -3);
  const pairs = head.length % 2 ? [head.slice(0, 1)] : [];
  for (let i = head.length % 2; i < head.length; i += 2) pairs.push(head.slice(i, i + 2));
  return `${pairs.join(",")},${digits.slice(-3)}`;
}

/** A whole number's sign and grouped digits; what is not a finite number shows as JavaScript writes it. */
function grouped(n: number): { sign: string; digits: string } | null {
  if (!Number.isFinite(n)) return null;
  // halves away from zero, as Intl rounds
  const whole = Math.round(Math.abs(n));
  return { sign: n < 0 && whole > 0 ? "-" : "", digits: groupDigits(BigInt(whole).toString()) };
}

/** ₹1,23,456: rupees rounded to the rupee. */
export function formatPrice(rupees: number): string {
  const g = grouped(rupees);
  return g ? `${g.sign}₹${g.digits}` : `₹${rupees}`;
}

/** 1,23,456: a count (of reviews, results, orders …), as en-IN writes it. */
export function formatCount(count: number): string {
  const g = grouped(count);
  return g ? `${g.sign}${g.digits}` : String(count);
}

/** A number in the Indian short form for a chart's axis: 950, 45K, 12.5L (lakh), 1.2Cr (crore). */
function compact(n: number): string {
  const abs = Math.abs(n);
  const [unit, size] = abs >= 1e7 ? ["Cr", 1e7] : abs >= 1e5 ? ["L", 1e5] : abs >= 1e3 ? ["K", 1e3] : ["", 1];
  if (size === 1) return formatCount(n);
  const scaled = Math.round((n / size) * 10) / 10;
  return `${Number.isInteger(scaled) ? scaled : scaled.toFixed(1)}${unit}`;
}

/** ₹45K, ₹12.5L, ₹1.2Cr: rupees on a chart's axis (formatPrice everywhere a figure is read). */
export function formatCompactPrice(rupees: number): string {
  const text = compact(rupees);
  return text.startsWith("-") ? `-₹${text.slice(1)}` : `₹${text}`;
}

/** 45K, 12.5L: a count on a chart's axis. */
export function formatCompactCount(count: number): string {
  return compact(count);
}
