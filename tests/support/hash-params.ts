// The password hash parameters the unit and integration tests make accounts with (set by
// tests/support/vitest-setup.ts): scrypt still, at a small fraction of the shop's cost.
import { setHashParamsInTests } from "~/lib/password.server";

export const TEST_HASH_PARAMS = { N: 2 ** 10, r: 8, p: 1 };

/** Runs `fn` with the shop's own parameters (SCRYPT_PARAMS), then the tests' again. */
export async function withShopHashParams<T>(fn: () => Promise<T>): Promise<T> {
  setHashParamsInTests(null);
  try {
    return await fn();
  } finally {
    setHashParamsInTests(TEST_HASH_PARAMS);
  }
}
