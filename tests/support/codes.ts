// Sign-up and email codes are drawn at random, 4 digits: two mailed one after the other are equal
// once in 10,000, and a test that tells an earlier code from a later one (the earlier must fail,
// the later work) would then fail by chance, as one did in CI.
import crypto from "node:crypto";
import { afterAll, beforeAll } from "vitest";
import { OTP_LENGTH } from "~/utils/account-fields";

type Draw = (...args: unknown[]) => number;

/**
 * For the calling test file: each code drawn differs from the one drawn just before it (a fresh
 * random draw, repeated while equal). Every other use of crypto.randomInt is left as it is.
 */
export function codesNeverRepeat() {
  const range = 10 ** OTP_LENGTH;
  const original = crypto.randomInt;
  const draw = original.bind(crypto) as Draw;
  let last: number | null = null;
  beforeAll(() => {
    crypto.randomInt = ((...args: unknown[]) => {
      if (args.length !== 2 || args[0] !== 0 || args[1] !== range) return draw(...args);
      let code = draw(0, range);
      while (code === last) code = draw(0, range);
      last = code;
      return code;
    }) as typeof crypto.randomInt;
  });
  afterAll(() => {
    crypto.randomInt = original;
  });
}
