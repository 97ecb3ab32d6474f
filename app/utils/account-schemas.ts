// Account forms and API bodies: one schema each, shared by the pages and the API routes.
// The lengths, rules and messages live in the zod-free account-fields.ts (the pages' inputs
// read them there). The sign-up checks run in the order docs/product.md gives, so the first
// message is that one, whatever else is wrong.
import { z } from "zod";
import { LOGIN_FIELDS, MESSAGES, OTP_LENGTH, PASSWORD_MAX, PASSWORD_MIN, PROFILE_FIELDS, SIGNUP_FIELDS } from "./account-fields";
import { EmailSchema } from "./schemas";

export { MESSAGES, OTP_LENGTH, PASSWORD_MAX, PASSWORD_MIN };

/** A form field or JSON value as text ("" when missing); numbers are accepted for codes. */
const text = z.preprocess(
  (v) => (v === undefined || v === null ? "" : typeof v === "number" ? String(v) : v),
  z.string({ error: "Must be text" }),
);

/** Indian mobile numbers: 10 digits starting 6-9; spaces, dashes and a +91 prefix are tolerated. */
export function normaliseMobile(raw: string): string | null {
  const compact = raw.replace(/[\s-]/g, "").replace(/^(\+91|0091)/, "");
  return /^[6-9]\d{9}$/.test(compact) ? compact : null;
}

function checkMobile(mobile: string, ctx: z.RefinementCtx) {
  if (mobile.trim() && !normaliseMobile(mobile)) ctx.addIssue({ code: "custom", path: ["mobile"], message: MESSAGES.mobile });
}

function checkEmailShape(email: string, ctx: z.RefinementCtx) {
  const result = EmailSchema.safeParse(email);
  if (!result.success) ctx.addIssue({ code: "custom", path: ["email"], message: result.error.issues[0]?.message ?? MESSAGES.email });
}

/** PASSWORD_MAX is every password field's maxLength (account-fields.ts). */
function checkNewPassword(password: string, confirm: string | null, ctx: z.RefinementCtx, field = "password") {
  if (confirm !== null && password !== confirm)
    ctx.addIssue({ code: "custom", path: ["confirmPassword"], message: MESSAGES.passwordsDiffer });
  if (password.length < PASSWORD_MIN) ctx.addIssue({ code: "custom", path: [field], message: MESSAGES.passwordShort });
  if (password.length > PASSWORD_MAX) ctx.addIssue({ code: "custom", path: [field], message: MESSAGES.passwordLong });
}

const toAccount = (v: { name: string; email: string; mobile: string; password: string }) => ({
  name: v.name.trim(),
  email: v.email.trim().toLowerCase(),
  mobile: normaliseMobile(v.mobile),
  password: v.password,
});

function registration(options: { confirm: boolean; terms: boolean }) {
  return z
    .object({ name: text, email: text, mobile: text, password: text, confirmPassword: text, terms: text })
    .superRefine((v, ctx) => {
      // 1. required fields, 2. passwords match, 3. password length: docs/product.md's order.
      for (const key of ["name", "email", "password"] as const) {
        if (!v[key].trim()) ctx.addIssue({ code: "custom", path: [key], message: MESSAGES.fillRequired });
      }
      if (!v.name.trim() || !v.email.trim() || !v.password.trim()) return;
      checkNewPassword(v.password, options.confirm ? v.confirmPassword : null, ctx);
      checkEmailShape(v.email, ctx);
      if (v.name.trim().length > SIGNUP_FIELDS.name.maxLength) ctx.addIssue({ code: "custom", path: ["name"], message: MESSAGES.nameLong });
      checkMobile(v.mobile, ctx);
      if (options.terms && !["on", "true", "1", "yes"].includes(v.terms))
        ctx.addIssue({ code: "custom", path: ["terms"], message: MESSAGES.terms });
    })
    .transform(toAccount);
}

/** The 'Create an Account' page: with the confirmation and the terms checkbox. */
export const SignupSchema = registration({ confirm: true, terms: true });
/** API registration bodies (`name, email, password, mobile?`). */
export const RegisterSchema = registration({ confirm: false, terms: false });
export type RegisterInput = z.output<typeof RegisterSchema>;

export const LoginSchema = z
  .object({ email: text, password: text })
  .superRefine((v, ctx) => {
    if (!v.email.trim() || !v.password) {
      ctx.addIssue({ code: "custom", path: [v.email.trim() ? "password" : "email"], message: MESSAGES.loginRequired });
      return;
    }
    if (v.email.trim().length > LOGIN_FIELDS.email.maxLength)
      ctx.addIssue({ code: "custom", path: ["email"], message: "That email address is too long" });
    if (v.password.length > PASSWORD_MAX) ctx.addIssue({ code: "custom", path: ["password"], message: MESSAGES.passwordLong });
  })
  .transform((v) => ({ email: v.email.trim().toLowerCase(), password: v.password }));
export type LoginInput = z.output<typeof LoginSchema>;

const ATTEMPT_ID_MESSAGE = "A valid attemptId is required";
/**
 * The `attemptId` registration answered: an opaque handle. Whether it names a sign-up is the
 * server's to say (a guessed one, or a number, names none: 404); only what cannot be text is
 * refused here.
 */
const AttemptIdSchema = z.preprocess(
  (v) => (typeof v === "number" ? String(v) : v),
  z.string({ error: ATTEMPT_ID_MESSAGE }).trim().min(1, ATTEMPT_ID_MESSAGE).max(64, ATTEMPT_ID_MESSAGE),
);

/** The code arrives as one string ("1234") or, from the four boxes, as four digits. */
export const OtpSchema = z.object({
  email: EmailSchema,
  otp: z.preprocess(
    (v) => (Array.isArray(v) ? v.join("") : typeof v === "number" ? String(v).padStart(OTP_LENGTH, "0") : v),
    z
      .string({ error: MESSAGES.otp })
      .trim()
      .regex(new RegExp(`^\\d{${OTP_LENGTH}}$`), MESSAGES.otp),
  ),
  /** API clients may send back the `attemptId` registration gave them, to bind the code to their own sign-up */
  attemptId: AttemptIdSchema.optional(),
});

export const EmailOnlySchema = z.object({ email: EmailSchema });
export const ResendSchema = z.object({ email: EmailSchema, attemptId: AttemptIdSchema.optional() });

export const ProfileSchema = z
  .object({ name: text, email: text, mobile: text })
  .superRefine((v, ctx) => {
    if (!v.name.trim()) ctx.addIssue({ code: "custom", path: ["name"], message: "Name is required" });
    else if (v.name.trim().length > PROFILE_FIELDS.name.maxLength)
      ctx.addIssue({ code: "custom", path: ["name"], message: MESSAGES.nameLong });
    if (!v.email.trim()) ctx.addIssue({ code: "custom", path: ["email"], message: "Email is required" });
    else checkEmailShape(v.email, ctx);
    checkMobile(v.mobile, ctx);
  })
  .transform((v) => ({ name: v.name.trim(), email: v.email.trim().toLowerCase(), mobile: normaliseMobile(v.mobile) }));
export type ProfileInput = z.output<typeof ProfileSchema>;

/**
 * The current password sent with a profile update (`currentPassword`, optional): the model asks
 * for it only when the email changes, and then checks it.
 */
export const CurrentPasswordSchema = z.object({ currentPassword: text }).superRefine((v, ctx) => {
  if (v.currentPassword.length > PASSWORD_MAX) ctx.addIssue({ code: "custom", path: ["currentPassword"], message: MESSAGES.passwordLong });
});

/** The code that confirms a new email address: "0421", a number, or the four boxes' digits. */
export const ConfirmEmailSchema = z.object({
  code: z.preprocess(
    (v) => (Array.isArray(v) ? v.join("") : typeof v === "number" ? String(v).padStart(OTP_LENGTH, "0") : v),
    z
      .string({ error: MESSAGES.emailCode })
      .trim()
      .regex(new RegExp(`^\\d{${OTP_LENGTH}}$`), MESSAGES.emailCode),
  ),
});

export const ChangePasswordSchema = z.object({ currentPassword: text, newPassword: text, confirmPassword: text }).superRefine((v, ctx) => {
  if (!v.currentPassword || !v.newPassword.trim() || !v.confirmPassword) {
    for (const key of ["currentPassword", "newPassword", "confirmPassword"] as const) {
      if (!v[key].trim()) ctx.addIssue({ code: "custom", path: [key], message: MESSAGES.fillRequired });
    }
    return;
  }
  checkNewPassword(v.newPassword, v.confirmPassword, ctx, "newPassword");
  if (v.currentPassword.length > PASSWORD_MAX) ctx.addIssue({ code: "custom", path: ["currentPassword"], message: MESSAGES.passwordLong });
  if (v.newPassword === v.currentPassword) {
    ctx.addIssue({ code: "custom", path: ["newPassword"], message: "Your new password must be different from the current one" });
  }
});

export const ResetPasswordSchema = z.object({ token: text, password: text, confirmPassword: text }).superRefine((v, ctx) => {
  if (!v.password.trim() || !v.confirmPassword) {
    for (const key of ["password", "confirmPassword"] as const) {
      if (!v[key].trim()) ctx.addIssue({ code: "custom", path: [key], message: MESSAGES.fillRequired });
    }
    return;
  }
  checkNewPassword(v.password, v.confirmPassword, ctx);
});
