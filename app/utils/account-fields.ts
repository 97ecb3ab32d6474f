// The account forms' field rules, lengths and messages: the inputs spread the rules
// (fieldProps) and the schemas in account-schemas.ts read the same numbers, so an attribute
// and the server's check cannot drift apart. Free of zod, so the pages' browser code (and
// OtpInput) may import it.
//
// The account forms leave their required fields to the server, whose messages come in the
// order docs/product.md gives ('Please fill in all required fields' first): those inputs say
// aria-required, not required (fieldProps(rule, "server")).
import { MAX_LENGTH } from "./field-lengths";
import type { FieldRule } from "./forms";

export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;
export const OTP_LENGTH = 4;
/** Room for a 10-digit mobile written with a prefix and spaces ("0091 98765 43210"); the schema checks the number itself. */
export const MOBILE_MAX = 16;

export const MESSAGES = {
  fillRequired: "Please fill in all required fields",
  passwordsDiffer: "Passwords do not match",
  passwordShort: `Password must be at least ${PASSWORD_MIN} characters long`,
  passwordLong: `Password must be at most ${PASSWORD_MAX} characters long`,
  email: "Please enter a valid email address",
  mobile: "Please enter a valid 10-digit mobile number starting with 6, 7, 8 or 9",
  terms: "Please agree to the Terms and Conditions",
  nameLong: `Full name must be at most ${MAX_LENGTH.name} characters`,
  loginRequired: "Please enter both email and password",
  otp: `Please enter the ${OTP_LENGTH}-digit OTP`,
  emailTaken: "An account with this email already exists. Please log in instead.",
  emailInUse: "This email address is already used by another account.",
  invalidLogin: "Invalid email or password",
  wrongCurrent: "Your current password is incorrect",
  emailChangeNeedsPassword: "Please enter your current password to change your email",
  emailCode: `Please enter the ${OTP_LENGTH}-digit code`,
  resetInvalid: "This password reset link is invalid or has expired. Please request a new one.",
} as const;

const email = { required: true, maxLength: MAX_LENGTH.email, type: "email" } as const satisfies FieldRule;
const password = { required: true, maxLength: PASSWORD_MAX, type: "password" } as const satisfies FieldRule;
const mobile = { maxLength: MOBILE_MAX, type: "tel" } as const satisfies FieldRule;

/** 'Create an Account' (terms is the checkbox). */
export const SIGNUP_FIELDS = {
  name: { required: true, maxLength: MAX_LENGTH.name, type: "text" },
  email,
  mobile,
  password,
  confirmPassword: password,
  terms: { required: true },
} satisfies Record<string, FieldRule>;

export const LOGIN_FIELDS = { email, password } satisfies Record<string, FieldRule>;

/** The profile page's 'Personal Information'. */
export const PROFILE_FIELDS = {
  name: { required: true, maxLength: MAX_LENGTH.name },
  email,
  mobile,
} satisfies Record<string, FieldRule>;

/**
 * The profile's 'Current Password' beside name, email and mobile: needed only to change the
 * email (the server asks for it then), so the input is never required.
 */
export const EMAIL_CHANGE_FIELDS = { currentPassword: { maxLength: PASSWORD_MAX, type: "password" } } satisfies Record<string, FieldRule>;

/** The profile page's 'Change Password'. */
export const CHANGE_PASSWORD_FIELDS = { currentPassword: password, newPassword: password, confirmPassword: password } satisfies Record<
  string,
  FieldRule
>;

export const FORGOT_PASSWORD_FIELDS = { email } satisfies Record<string, FieldRule>;

export const RESET_PASSWORD_FIELDS = { password, confirmPassword: password } satisfies Record<string, FieldRule>;
