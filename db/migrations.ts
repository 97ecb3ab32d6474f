// Every migration in migrations/, by name, in order. Static imports so the server bundle
// carries them. This registry lives outside migrations/ because it grows with every new
// migration, while the files in migrations/ are frozen once landed.
import type { Migration } from "kysely";
import * as m0001 from "../migrations/2026-11-22-0001-initial-schema";
import * as m0002 from "../migrations/2026-11-22-0002-wishlists";
import * as m0003 from "../migrations/2026-11-22-0003-signup-attempts";
import * as m0004 from "../migrations/2026-11-22-0004-payment-checkout";
import * as m0005 from "../migrations/2026-11-23-0005-signup-attempt-handles";
import * as m0006 from "../migrations/2026-11-23-0006-product-version";
import * as m0007 from "../migrations/2026-11-23-0007-seeded-flag";
import * as m0008 from "../migrations/2026-11-23-0008-email-change";
import * as m0009 from "../migrations/2026-11-23-0009-shipment-details";
import * as m0010 from "../migrations/2026-11-23-0010-catalogue-paging-indexes";
import * as m0011 from "../migrations/2026-11-25-0011-search-index";
import * as m0012 from "../migrations/2026-11-25-0012-list-indexes";
import * as m0013 from "../migrations/2026-11-25-0013-stock-reservations";
import * as m0014 from "../migrations/2026-11-25-0014-refunds";
import * as m0015 from "../migrations/2026-11-25-0015-returns";
import * as m0016 from "../migrations/2026-11-25-0016-category-price-stock-index";
import * as m0017 from "../migrations/2026-11-26-0017-search-tier-indexes";
import * as m0018 from "../migrations/2026-11-26-0018-delivery-by-pincode";
import * as m0019 from "../migrations/2026-11-26-0019-coupons";
import * as m0020 from "../migrations/2026-11-26-0020-reviews";
import * as m0021 from "../migrations/2026-11-26-0021-coupon-holds";
import * as m0022 from "../migrations/2026-11-26-0022-shared-secrets";
import * as m0023 from "../migrations/2026-11-26-0023-mail-outbox";
import * as m0024 from "../migrations/2026-11-26-0024-uploads";
import * as m0025 from "../migrations/2026-11-26-0025-mail-discard-after";
import * as m0026 from "../migrations/2026-11-28-0026-payment-order-order-id";
import * as m0027 from "../migrations/2026-11-29-0027-dashboard-figure-indexes";
import * as m0028 from "../migrations/2026-11-29-0028-mail-request-id";
import * as m0029 from "../migrations/2026-11-29-0029-dashboard-summaries";
import * as m0030 from "../migrations/2026-11-29-0030-staff-accounts";
import * as m0031 from "../migrations/2026-11-29-0031-audit-trail-order-indexes";
import * as m0032 from "../migrations/2026-11-29-0032-product-variants";
import * as m0033 from "../migrations/2026-11-29-0033-product-photos";
import * as m0034 from "../migrations/2026-11-29-0034-variant-facets";
import * as m0035 from "../migrations/2026-11-29-0035-variant-low-stock-index";

export const migrations: Record<string, Migration> = {
  "2026-11-22-0001-initial-schema": m0001,
  "2026-11-22-0002-wishlists": m0002,
  "2026-11-22-0003-signup-attempts": m0003,
  "2026-11-22-0004-payment-checkout": m0004,
  "2026-11-23-0005-signup-attempt-handles": m0005,
  "2026-11-23-0006-product-version": m0006,
  "2026-11-23-0007-seeded-flag": m0007,
  "2026-11-23-0008-email-change": m0008,
  "2026-11-23-0009-shipment-details": m0009,
  "2026-11-23-0010-catalogue-paging-indexes": m0010,
  "2026-11-25-0011-search-index": m0011,
  "2026-11-25-0012-list-indexes": m0012,
  "2026-11-25-0013-stock-reservations": m0013,
  "2026-11-25-0014-refunds": m0014,
  "2026-11-25-0015-returns": m0015,
  "2026-11-25-0016-category-price-stock-index": m0016,
  "2026-11-26-0017-search-tier-indexes": m0017,
  "2026-11-26-0018-delivery-by-pincode": m0018,
  "2026-11-26-0019-coupons": m0019,
  "2026-11-26-0020-reviews": m0020,
  "2026-11-26-0021-coupon-holds": m0021,
  "2026-11-26-0022-shared-secrets": m0022,
  "2026-11-26-0023-mail-outbox": m0023,
  "2026-11-26-0024-uploads": m0024,
  "2026-11-26-0025-mail-discard-after": m0025,
  "2026-11-28-0026-payment-order-order-id": m0026,
  "2026-11-29-0027-dashboard-figure-indexes": m0027,
  "2026-11-29-0028-mail-request-id": m0028,
  "2026-11-29-0029-dashboard-summaries": m0029,
  "2026-11-29-0030-staff-accounts": m0030,
  "2026-11-29-0031-audit-trail-order-indexes": m0031,
  "2026-11-29-0032-product-variants": m0032,
  "2026-11-29-0033-product-photos": m0033,
  "2026-11-29-0034-variant-facets": m0034,
  "2026-11-29-0035-variant-low-stock-index": m0035,
};
