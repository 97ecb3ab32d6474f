// Domain errors: what went wrong in words a customer can read, the HTTP status it maps to,
// and a code that callers branch on. Never compare an error's message: compare its code.

/** Why a request failed. Callers branch on these; the message is for people. */
export type ErrorCode =
  | "BAD_REQUEST"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "CROSS_SITE"
  | "NOT_FOUND"
  | "METHOD_NOT_ALLOWED"
  | "CONFLICT"
  | "TOO_LARGE"
  | "UNSUPPORTED_TYPE"
  | "RATE_LIMITED"
  /** a page form's `intent` names none of the page's actions (or the form has none) */
  | "UNKNOWN_INTENT"
  /** the server is at capacity for this kind of work right now: try again shortly */
  | "BUSY"
  /** an order was asked for with nothing in the cart */
  | "EMPTY_CART"
  /** the stock no longer covers what the cart holds */
  | "STOCK_SHORTAGE"
  /**
   * a paid payment's coupon cannot be counted (its hold had ended and the code no longer applies, or
   * the customer's own limit is reached): the payment is refunded
   */
  | "COUPON_LAPSED"
  /** the cart's total changed since the checkout page showed it */
  | "STALE_TOTAL"
  /** the same order (idempotency key or payment) was placed before: see OrderExistsError */
  | "ALREADY_ORDERED"
  /** a payment's signature did not verify */
  | "PAYMENT_FAILED"
  /** the payment order was already paid by another payment */
  | "ANOTHER_PAYMENT"
  /** the payment order was marked failed (its payment refunded or being refunded): it can never become an order */
  | "PAYMENT_ORDER_FAILED"
  /** the gateway holds no captured payment of the payment order's amount for this proof */
  | "NOT_CAPTURED"
  /** a product sold in several variants was added without naming one (`variantId`) */
  | "VARIANT_REQUIRED"
  /** the variant named is not one of the product's */
  | "VARIANT_NOT_FOUND"
  /** the variant named is no longer sold */
  | "VARIANT_INACTIVE";

export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 429 | 503;

const CODE_OF_STATUS: Record<ErrorStatus, ErrorCode> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  409: "CONFLICT",
  413: "TOO_LARGE",
  415: "UNSUPPORTED_TYPE",
  429: "RATE_LIMITED",
  503: "BUSY",
};

/** What an AppError carries besides its status and message. */
export interface AppErrorDetails {
  /** a message per field, shown beside it */
  fieldErrors?: Record<string, string>;
  /** headers for the answer (Retry-After, Allow, …) */
  headers?: HeadersInit;
  /** what callers branch on; by default the status's own code */
  code?: ErrorCode;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fieldErrors?: Record<string, string>;
  readonly headers?: HeadersInit;

  constructor(
    public status: ErrorStatus,
    message: string,
    details: AppErrorDetails = {},
  ) {
    super(message);
    this.name = "AppError";
    this.fieldErrors = details.fieldErrors;
    this.headers = details.headers;
    this.code = details.code ?? CODE_OF_STATUS[status];
  }

  /** The same failure with another message (and field messages), keeping status, code and headers. */
  withMessage(message: string, fieldErrors = this.fieldErrors): AppError {
    return new AppError(this.status, message, { fieldErrors, headers: this.headers, code: this.code });
  }
}

/** Is this an AppError (of the given code, when one is named)? */
export function isAppError(error: unknown, code?: ErrorCode): error is AppError {
  return error instanceof AppError && (code === undefined || error.code === code);
}

/** The order asked for exists already (a repeated idempotency key, or a payment used before). */
export class OrderExistsError extends AppError {
  constructor(
    public orderId: number,
    message: string,
  ) {
    super(409, message, { code: "ALREADY_ORDERED" });
    this.name = "OrderExistsError";
  }
}

/** Not found, in an action or an API handler: the form re-renders with the message, the API answers its JSON. */
export const notFound = (message = "Not found") => new AppError(404, message);

/**
 * Not found, thrown by a page's loader (or an action that leaves the page): the route's error
 * boundary renders it (the shop's NotFoundPage or ErrorPage, the admin frame's), and its data is
 * the page's own words ("Order Not Found"). A Response, so whatever passes thrown Responses on
 * (a page action's unforeseen-failure net) passes this on too.
 */
export const notFoundPage = (message = "Not Found") => new Response(message, { status: 404 });
