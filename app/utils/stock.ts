// What the shop says about the units a customer may have of a product now: its stock on hand less
// what other customers hold while they pay (app/models/reservations.server, ADR 0023). The product
// page and the cart show it; shared by browser and server.

/** Up to this many units left, the product page and the cart say how many. */
export const FEW_LEFT = 5;

/** 'Only N left' for a few units; a word on held units when others hold all there are; else nothing. */
export function stockNote(available: number, stock: number): string | null {
  if (available <= 0) return stock > 0 ? "Held for customers who are paying now. Please check again in a few minutes." : null;
  return available <= FEW_LEFT ? `Only ${available} left` : null;
}
