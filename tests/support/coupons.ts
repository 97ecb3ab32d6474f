// A coupon made straight through the staff's model, for integration tests: 10 % off, no limits,
// no dates, every category, unless the test says otherwise.
import { createCoupon } from "~/models/coupons/admin.server";
import type { CouponInput } from "~/utils/coupon-schemas";
import { BUILTIN_OWNER } from "~/models/staff/staff.server";

export function createTestCoupon(code: string, over: Partial<CouponInput> = {}) {
  return createCoupon(
    {
      code,
      kind: "percent",
      value: 10,
      minSubtotal: 0,
      maxDiscount: null,
      validFrom: null,
      validUntil: null,
      usageLimit: null,
      perCustomerLimit: null,
      categoryIds: [],
      ...over,
    },
    BUILTIN_OWNER,
  );
}
