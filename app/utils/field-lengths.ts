// How long a typed field may be: the zod schemas enforce these, and the field rules print them
// as maxLength. Free of zod, so browser code may import it.

export const MAX_LENGTH = { name: 100, email: 254, phone: 20, message: 5000 } as const;

/**
 * An email address: no spaces, one @, and a domain of dot-separated labels. Its parts cannot
 * overlap, so it runs in time linear in the input (the pattern it replaces let `[^\s@]+` match
 * dots too and took seconds on 64 KB of 'a.a.a.', freezing the server: the 2026-11-23 review).
 */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;

/** Whether `value` is an email address of at most `max` characters (the length is checked first). */
export function isEmailAddress(value: string, max: number = MAX_LENGTH.email): boolean {
  return value.length <= max && EMAIL_PATTERN.test(value);
}
