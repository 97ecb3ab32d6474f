// The return request form (ADR 0025): its reasons and fields, shared by the page, the
// API and the model. Zod-free field rules, read by the schema in utils/schemas.
export const RETURN_REASONS = {
  damaged: "Arrived damaged",
  defective: "Defective (does not work as it should)",
} as const;
export type ReturnReason = keyof typeof RETURN_REASONS;
export const RETURN_REASON_KEYS = Object.keys(RETURN_REASONS) as ReturnReason[];

export const RETURN_FIELDS = {
  details: { maxLength: 1000, required: true },
  staffNote: { maxLength: 500 },
} as const;

/** The form field that carries how many units of an order line to return. */
export const returnQuantityField = (orderItemId: number) => `qty-${orderItemId}`;

export const RETURN_MESSAGES = {
  nothingChosen: "Choose at least one piece to return.",
  reason: "Choose why you are returning it.",
  details: "Tell us what is wrong (at most 1000 characters).",
  notDelivered: "Only a delivered order can be returned.",
  windowClosed: (end: string) =>
    `Damaged or defective pieces must be reported within 48 hours of delivery; this order's window closed on ${end}.`,
  tooMany: (title: string, left: number) =>
    left === 0 ? `${title} is already being returned.` : `You can return at most ${left} of ${title}.`,
  unknownLine: "That piece is not part of this order.",
  rejectNote: "Tell the customer why (at most 500 characters).",
};

/** The staff's returns list: which ones (open: waiting for a decision or for the goods). */
export const RETURN_FILTERS = ["open", "requested", "approved", "rejected", "returned", "all"] as const;
export type ReturnFilter = (typeof RETURN_FILTERS)[number];
export const RETURN_FILTER_LABEL: Record<ReturnFilter, string> = {
  open: "Waiting for the shop",
  requested: "Requested",
  approved: "Approved (goods on the way)",
  rejected: "Rejected",
  returned: "Returned",
  all: "All returns",
};
