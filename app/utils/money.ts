// The one money formatter: en-IN rupees, no decimals (₹1,23,456).
const inr = new Intl.NumberFormat("en-IN", {
  style: "currency",
  currency: "INR",
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});

export function formatPrice(rupees: number): string {
  return inr.format(Math.round(rupees));
}
