// The database as Kysely sees it (camelCase through CamelCasePlugin).
// Timestamps are ISO-8601 strings; flags are 0/1 integers; money is whole rupees.
import type { Generated, Insertable, Selectable, Updateable } from "kysely";

import type { OrderStatus } from "~/utils/order-status";

export type { OrderStatus };
export type PaymentMethod = "cod" | "online";
/** created: waiting for payment; paid: a verified payment is recorded; failed: paid, but no order could be placed (refund due) */
export type PaymentOrderStatus = "created" | "paid" | "failed";

export interface UsersTable {
  id: Generated<number>;
  name: string;
  email: string;
  mobile: string | null;
  passwordHash: string | null;
  emailVerifiedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface SessionsTable {
  id: string;
  userId: number | null;
  data: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  /** the staff member the session is signed in as (migration 0030); null for every other session */
  staffId: number | null;
}

export interface ApiTokensTable {
  id: Generated<number>;
  userId: number;
  tokenHash: string;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
}

export interface OneTimeCodesTable {
  id: Generated<number>;
  email: string;
  purpose: "signup" | "password_reset" | "email_change";
  codeHash: string;
  attempts: Generated<number>;
  expiresAt: string;
  usedAt: string | null;
  createdAt: string;
  /** a sign-up attempt's JSON { name, mobile, passwordHash } (migration 0003) */
  payload: string | null;
  /** a sign-up attempt's name outside the server: base64url of 16 random bytes, unique; null for reset links (migration 0005) */
  handle: string | null;
  /** an email change's account; `email` is then the new address its code was mailed to (migration 0008) */
  userId: number | null;
}

export interface RateLimitsTable {
  key: string;
  count: number;
  resetAt: string;
}

export interface CategoriesTable {
  id: Generated<number>;
  title: string;
  slug: string;
  description: string;
  imgPath: string;
  position: Generated<number>;
  createdAt: string;
  updatedAt: string;
}

export interface ItemsTable {
  id: Generated<number>;
  categoryId: number;
  title: string;
  slug: string;
  description: string;
  price: number;
  imgPath: string;
  featured: Generated<number>;
  stock: Generated<number>;
  /** JSON object of string → string */
  specifications: Generated<string>;
  createdAt: string;
  updatedAt: string;
  /** bumped by every write to the row (edits, imports, orders, cancellations); an edit made from another version is refused */
  version: Generated<number>;
  /** the product's visible reviews: how many, and the sum of their ratings (migration 0020; models/reviews/ keeps them) */
  reviewCount: Generated<number>;
  ratingTotal: Generated<number>;
  /** 1: made after it is ordered, delivered in at least 14-21 business days (migration 0018; ADR 0017) */
  madeToOrder: Generated<number>;
}

export interface CartsTable {
  id: string;
  userId: number | null;
  createdAt: string;
  updatedAt: string;
  /** the coupon code its customer applied, upper-case (migration 0019); checked again on every read and at order time */
  couponCode: Generated<string | null>;
}

export interface CartLinesTable {
  id: Generated<number>;
  cartId: string;
  itemId: number;
  /** the variant in the cart (migration 0032): one line per variant */
  variantId: number;
  quantity: number;
  createdAt: string;
}

export interface WishlistsTable {
  id: string;
  userId: number | null;
  createdAt: string;
  updatedAt: string;
}

export interface WishlistItemsTable {
  wishlistId: string;
  itemId: number;
  createdAt: string;
}

export interface PaymentOrdersTable {
  id: string;
  userId: number | null;
  amountPaise: number;
  currency: string;
  status: PaymentOrderStatus;
  paymentId: string | null;
  /** JSON of the checkout this payment is for ({ shipping }), when the checkout page made it */
  checkout: string | null;
  /** why a paid payment order could not become an order */
  failure: string | null;
  /** JSON of the coupon rule its amount was priced with (migration 0019): the order is placed at that price */
  coupon: Generated<string | null>;
  /** the order this payment became (migration 0026), written in that order's transaction */
  orderId: Generated<number | null>;
  createdAt: string;
  updatedAt: string;
}

/** Units a payment order holds while its customer pays (migration 0013, ADR 0023). */
export interface StockReservationsTable {
  paymentOrderId: string;
  itemId: number;
  /** the variant held (migration 0032) */
  variantId: number;
  /** the payment order's customer: what others hold is counted without a join */
  userId: number;
  quantity: number;
  /** ISO time after which the units no longer count as held */
  expiresAt: string;
  createdAt: string;
}

export type CouponKind = "percent" | "fixed";

/** A coupon code the staff made (migration 0019; app/models/coupons/, the money rule in utils/pricing). */
export interface CouponsTable {
  id: Generated<number>;
  /** upper-case: codes are matched without case */
  code: string;
  kind: CouponKind;
  /** a percentage (1-100) or whole rupees */
  value: number;
  minSubtotal: Generated<number>;
  maxDiscount: number | null;
  validFrom: string | null;
  validUntil: string | null;
  usageLimit: number | null;
  perCustomerLimit: number | null;
  /** orders using it now (cancelled ones give theirs back) */
  uses: Generated<number>;
  paused: Generated<number>;
  /** 1: only lines of its coupon_categories are discounted */
  limited: Generated<number>;
  createdAt: string;
  updatedAt: string;
}

export interface CouponCategoriesTable {
  couponId: number;
  categoryId: number;
}

/** A coupon use held by a payment order while its customer pays (migration 0021; models/coupons/uses.server). */
export interface CouponHoldsTable {
  paymentOrderId: string;
  couponId: number;
  userId: number;
  /** ISO time after which the use is no longer held (the payment order's stock hold time) */
  expiresAt: string;
  /** its payment was verified while the hold was live: it holds until its order or its refund */
  paidAt: string | null;
  createdAt: string;
}

/**
 * A secret every app server shares (migration 0022; app/lib/secrets.server.ts): its value when a
 * server generated it, else only the fingerprint of the value the environment gives every server.
 */
export interface SharedSecretsTable {
  name: string;
  value: string | null;
  fingerprint: string;
  createdAt: string;
  updatedAt: string;
}

export interface CouponUsesTable {
  id: Generated<number>;
  couponId: number;
  orderId: number;
  userId: number;
  createdAt: string;
}

export interface OrdersTable {
  id: Generated<number>;
  userId: number;
  status: OrderStatus;
  paymentMethod: PaymentMethod;
  paymentOrderId: string | null;
  paymentId: string | null;
  idempotencyKey: string | null;
  subtotal: number;
  shipping: number;
  gst: number;
  total: number;
  shipName: string;
  shipAddress: string;
  shipCity: string;
  shipState: string;
  shipPincode: string;
  shipPhone: string;
  shipEmail: string;
  /** recorded when the shop marks it shipped (migration 0009), else null */
  carrier: string | null;
  trackingNumber: string | null;
  createdAt: string;
  updatedAt: string;
  /** the business days and the date promised when it was placed, from its pincode's zone (migration 0018); null before */
  deliveryMinDays: Generated<number | null>;
  deliveryMaxDays: Generated<number | null>;
  estimatedDelivery: Generated<string | null>;
  /** rupees taken off the subtotal by its coupon (migration 0019); GST and shipping are on what is left */
  discount: Generated<number>;
  couponCode: Generated<string | null>;
}

export interface OrderItemsTable {
  id: Generated<number>;
  orderId: number;
  itemId: number | null;
  title: string;
  slug: string;
  imgPath: string;
  quantity: number;
  unitPrice: number;
  /** this line's share of the order's discount, in rupees (migration 0019) */
  discount: Generated<number>;
  /** the variant ordered, as it was (migration 0032): its id (the row may be gone since), SKU and label ('' without options) */
  variantId: number | null;
  sku: Generated<string>;
  variantLabel: Generated<string>;
}

/** A product's options (migration 0032): Finish, Size, Fabric; at most three, in position order. */
export interface ProductOptionsTable {
  id: Generated<number>;
  itemId: number;
  name: string;
  /** the option in a URL: ?finish=walnut */
  slug: string;
  position: number;
  createdAt: string;
}

export interface ProductOptionValuesTable {
  id: Generated<number>;
  optionId: number;
  itemId: number;
  value: string;
  slug: string;
  position: number;
}

/**
 * One combination of a product's option values as sold (migration 0032, ADR 0034); a product
 * without options has one, its default (optionKey ''). items.price and items.stock are kept from
 * the active variants by triggers: stock and price are written here, never to items.
 */
export interface ProductVariantsTable {
  id: Generated<number>;
  itemId: number;
  sku: string;
  /** its option values' ids in option order, joined by '.'; '' for the default variant */
  optionKey: Generated<string>;
  price: number;
  stock: Generated<number>;
  weightGrams: number | null;
  lengthCm: number | null;
  widthCm: number | null;
  heightCm: number | null;
  active: Generated<number>;
  position: Generated<number>;
  version: Generated<number>;
  createdAt: string;
  updatedAt: string;
}

export interface VariantOptionValuesTable {
  variantId: number;
  optionValueId: number;
}

/**
 * One row per active variant and option value, with what a list filters on beside it (migration
 * 0034, docs/decisions/0036): the category's and the search's filters by option value and their
 * counts. Kept by triggers; never written by the application.
 */
export interface VariantFacetsTable {
  variantId: number;
  optionValueId: number;
  itemId: number;
  categoryId: number;
  optionSlug: string;
  valueSlug: string;
  optionName: string;
  value: string;
  valuePosition: number;
  /** 1 when this variant has stock */
  inStock: number;
  /** the product's price (items.price: its lowest active variant's) */
  price: number;
  featured: number;
}

/**
 * The dashboard's sums per calendar day in India, status, payment method and coupon ('' for none),
 * kept by triggers on every write of orders (migration 0029, ADR 0032).
 */
export interface OrderDayFiguresTable {
  day: string;
  status: OrderStatus;
  paymentMethod: PaymentMethod;
  couponCode: string;
  orders: number;
  /** the orders' totals, summed, whatever their status (readers apply the revenue rule) */
  revenue: number;
  discount: number;
}

/** Units and revenue per calendar day in India, status and product (0: a deleted product), kept by triggers (migration 0029). */
export interface ItemDayFiguresTable {
  day: string;
  status: OrderStatus;
  itemId: number;
  units: number;
  /** quantity times unit price, less the line's share of the discount */
  revenue: number;
}

/** The same per product's category now (0: a deleted product), kept by triggers (migration 0029). */
export interface CategoryDayFiguresTable {
  day: string;
  status: OrderStatus;
  categoryId: number;
  units: number;
  revenue: number;
}

/** The days product_period_figures holds, per period (migration 0029); '' before the first reading. */
export interface FigureWindowsTable {
  period: number;
  startDay: string;
  endDay: string;
}

/** Each product's units and revenue over its period's window, revenue orders only (migration 0029). */
export interface ProductPeriodFiguresTable {
  period: number;
  itemId: number;
  units: number;
  revenue: number;
}

export interface OrderEventsTable {
  id: Generated<number>;
  orderId: number;
  fromStatus: OrderStatus | null;
  toStatus: OrderStatus;
  actor: "customer" | "admin" | "system";
  actorUserId: number | null;
  createdAt: string;
}

export type ReturnStatus = "requested" | "approved" | "rejected" | "returned";

export interface ReturnRequestsTable {
  id: Generated<number>;
  orderId: number;
  userId: number;
  status: ReturnStatus;
  /** one of RETURN_REASONS (utils/returns) */
  reason: string;
  details: string;
  /** why the staff rejected it (shown to the customer) */
  staffNote: string | null;
  /** rupees the return refunds, computed when it is asked for (utils/pricing returnRefund) */
  refundAmount: number;
  createdAt: string;
  updatedAt: string;
}

export interface ReturnLinesTable {
  returnId: number;
  orderItemId: number;
  quantity: number;
}

export interface ReturnEventsTable {
  id: Generated<number>;
  returnId: number;
  fromStatus: ReturnStatus | null;
  toStatus: ReturnStatus;
  actor: "customer" | "admin" | "system";
  actorUserId: number | null;
  note: string | null;
  createdAt: string;
}

export type RefundStatus = "pending" | "processed" | "failed";
export type RefundReason = "unplaced" | "cancelled" | "returned";

/** A refund of one payment (migration 0014, ADR 0024): queued, sent to the gateway, and its answer. */
export interface RefundsTable {
  id: Generated<number>;
  paymentOrderId: string;
  /** the payment refunded: the payment order's, or a second payment of it ("paid twice") */
  paymentId: string;
  /** null for a payment that never became an order */
  orderId: number | null;
  /** whole rupees */
  amount: number;
  reason: RefundReason;
  /** the shop's key: one refund per cancellation, return or unplaced payment */
  idempotencyKey: string;
  /** Razorpay's X-Refund-Idempotency header: the same on every resend, a new one only for a retry of a failed refund */
  gatewayKey: string;
  status: RefundStatus;
  gatewayRefundId: string | null;
  failureReason: string | null;
  /** calls made to the gateway */
  attempts: Generated<number>;
  /** while a sender is waiting for the gateway's answer, until when no other sends it */
  sendingUntil: string | null;
  actor: "customer" | "admin" | "system";
  actorUserId: number | null;
  createdAt: string;
  updatedAt: string;
  processedAt: string | null;
}

export interface NewsletterSubscribersTable {
  id: Generated<number>;
  email: string;
  createdAt: string;
}

export interface ContactMessagesTable {
  id: Generated<number>;
  name: string;
  email: string;
  phone: string | null;
  subject: string;
  message: string;
  createdAt: string;
}

export interface AuditLogTable {
  id: Generated<number>;
  action: string;
  entity: string;
  entityId: string | null;
  summary: string;
  createdAt: string;
  /** who made the change (migration 0030): null for the built-in owner and the shop's own jobs */
  staffId: number | null;
  /** the name and role of who made it, as they were then (null for rows before migration 0030) */
  actor: string | null;
  /** JSON { field: [before, after] } for the fields whose values the change recorded */
  details: string | null;
}

/** Staff accounts (migration 0030, docs/decisions/0033) */
export interface StaffTable {
  id: Generated<number>;
  name: string;
  email: string;
  role: "owner" | "manager" | "fulfilment" | "support";
  passwordHash: string | null;
  active: Generated<number>;
  twoStepRequired: Generated<number>;
  totpSecret: string | null;
  totpLastStep: number | null;
  createdAt: string;
  lastSignInAt: string | null;
  disabledAt: string | null;
}

export interface StaffTokensTable {
  id: Generated<number>;
  staffId: number;
  purpose: "invite" | "reset";
  tokenHash: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

export interface StaffRecoveryCodesTable {
  id: Generated<number>;
  staffId: number;
  codeHash: string;
  usedAt: string | null;
}

/** The pincode directory (migration 0018, db/pincode-directory.ts): read only */
export interface PincodesTable {
  pincode: number;
  city: string;
  district: string;
  state: string;
  /** a border pincode's second state, else null */
  otherState: string | null;
}

export type DeliveryZoneKind = "default" | "state" | "district" | "range";

/** Where the shop delivers, how fast, and with cash on delivery or not (migration 0018; ADR 0017) */
export interface DeliveryZonesTable {
  id: Generated<number>;
  kind: DeliveryZoneKind;
  /** unique per scope: default, state:{state}, district:{state}|{district}, range:{from}-{to} */
  scopeKey: string;
  state: string | null;
  district: string | null;
  pincodeFrom: number | null;
  pincodeTo: number | null;
  minDays: number;
  maxDays: number;
  cod: number;
  served: number;
  label: string;
  createdAt: string;
  updatedAt: string;
}

/** One row per key; `seeded` says the database was seeded, and how (db/seed.server.ts, migration 0007) */
export interface SettingsTable {
  key: string;
  value: string;
  updatedAt: string;
}

export interface ReviewsTable {
  id: Generated<number>;
  itemId: number;
  userId: number;
  rating: number;
  title: string;
  body: string;
  /** 1 while shown; 0 once the staff hid it */
  visible: Generated<number>;
  hiddenReason: string | null;
  helpfulCount: Generated<number>;
  createdAt: string;
  updatedAt: string;
}

export interface ReviewVotesTable {
  reviewId: number;
  userId: number;
  createdAt: string;
}

export type OutboxStatus = "pending" | "sending" | "sent" | "failed";

/** One outgoing mail (migration 0023): queued in its change's transaction, sent by the outbox worker. */
export interface MailOutboxTable {
  id: Generated<number>;
  recipient: string;
  subject: string;
  text: string;
  html: string | null;
  replyTo: string | null;
  status: Generated<OutboxStatus>;
  attempts: Generated<number>;
  nextAttemptAt: string;
  claimedBy: string | null;
  claimedUntil: string | null;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
  /** past it the mail is worthless (its code or link expired): failed unsent, body cleared (migration 0025) */
  discardAfter: string | null;
  /** the X-Request-Id of the request that queued it; null outside a request (migration 0028) */
  requestId: string | null;
}

/** A job one process at a time runs across every server (housekeeping): its holder until expiresAt. */
export interface LeasesTable {
  name: string;
  holder: string;
  expiresAt: string;
}

/** An uploaded image (migration 0024), on the database store (app/lib/image-store.server.ts). */
export interface UploadsTable {
  /** the upload's random name, `{32 hex}.{jpg|png|webp}`, as in its URL /uploads/{name} */
  name: string;
  contentType: string;
  bytes: Buffer;
  size: number;
  /** strong ETag, quoted: the sha256 of the bytes */
  etag: string;
  createdAt: string;
}

/**
 * A product's photo (migration 0033; app/lib/photos.server.ts makes it): the original and its
 * renditions live in the image store; this row says which, in what order, and what it shows.
 */
export interface ProductPhotosTable {
  id: Generated<number>;
  itemId: number;
  /** the variant the photo shows, null for the product as a whole */
  variantId: number | null;
  /** 1 first (the photo the product page opens on) */
  position: number;
  alt: Generated<string>;
  /** the original's stored name, `{32 hex}.{jpg|png|webp}`, upright and without metadata */
  originalName: string;
  /** the original's size after orientation, in pixels */
  width: number;
  height: number;
  /** the 32 hex of every rendition's name: `{base}-{width}.avif` and `.webp` */
  renditionBase: string;
  createdAt: string;
}

export interface DB {
  users: UsersTable;
  sessions: SessionsTable;
  apiTokens: ApiTokensTable;
  oneTimeCodes: OneTimeCodesTable;
  rateLimits: RateLimitsTable;
  categories: CategoriesTable;
  items: ItemsTable;
  productOptions: ProductOptionsTable;
  productOptionValues: ProductOptionValuesTable;
  productVariants: ProductVariantsTable;
  variantOptionValues: VariantOptionValuesTable;
  variantFacets: VariantFacetsTable;
  carts: CartsTable;
  cartLines: CartLinesTable;
  wishlists: WishlistsTable;
  wishlistItems: WishlistItemsTable;
  paymentOrders: PaymentOrdersTable;
  stockReservations: StockReservationsTable;
  orders: OrdersTable;
  orderItems: OrderItemsTable;
  orderDayFigures: OrderDayFiguresTable;
  itemDayFigures: ItemDayFiguresTable;
  categoryDayFigures: CategoryDayFiguresTable;
  figureWindows: FigureWindowsTable;
  productPeriodFigures: ProductPeriodFiguresTable;
  orderEvents: OrderEventsTable;
  returnRequests: ReturnRequestsTable;
  returnLines: ReturnLinesTable;
  returnEvents: ReturnEventsTable;
  reviews: ReviewsTable;
  reviewVotes: ReviewVotesTable;
  newsletterSubscribers: NewsletterSubscribersTable;
  contactMessages: ContactMessagesTable;
  refunds: RefundsTable;
  coupons: CouponsTable;
  couponCategories: CouponCategoriesTable;
  couponUses: CouponUsesTable;
  couponHolds: CouponHoldsTable;
  sharedSecrets: SharedSecretsTable;
  auditLog: AuditLogTable;
  staff: StaffTable;
  staffTokens: StaffTokensTable;
  staffRecoveryCodes: StaffRecoveryCodesTable;
  settings: SettingsTable;
  pincodes: PincodesTable;
  deliveryZones: DeliveryZonesTable;
  uploads: UploadsTable;
  productPhotos: ProductPhotosTable;
  mailOutbox: MailOutboxTable;
  leases: LeasesTable;
}

export type CategoryRow = Selectable<CategoriesTable>;
export type ItemRow = Selectable<ItemsTable>;
export type NewItem = Insertable<ItemsTable>;
export type ItemUpdate = Updateable<ItemsTable>;
export type UserRow = Selectable<UsersTable>;
