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
