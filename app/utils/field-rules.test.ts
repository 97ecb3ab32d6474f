// The forms' field rules (the inputs' native attributes) and the schemas their actions parse
// with agree: a required field refuses "", and a field with a maxLength accepts that many
// characters and refuses one more.
import { describe, expect, it } from "vitest";
import {
  CHANGE_PASSWORD_FIELDS,
  EMAIL_CHANGE_FIELDS,
  FORGOT_PASSWORD_FIELDS,
  LOGIN_FIELDS,
  MOBILE_MAX,
  PROFILE_FIELDS,
  RESET_PASSWORD_FIELDS,
  SIGNUP_FIELDS,
} from "./account-fields";
import {
  ChangePasswordSchema,
  CurrentPasswordSchema,
  EmailOnlySchema,
  LoginSchema,
  ProfileSchema,
  ResetPasswordSchema,
  SignupSchema,
} from "./account-schemas";
import type { FieldRule } from "./forms";
import { CONTACT_FIELDS, NEWSLETTER_FIELDS } from "./message-fields";
import { ContactSchema, NewsletterSchema } from "./schemas";

type Fields = Record<string, string>;

interface Form {
  rules: Record<string, FieldRule>;
  schema: { safeParse(input: unknown): { success: boolean } };
  /** a complete input the schema accepts */
  valid: Fields;
}

const email = "asha@example.com";
const FORMS: Record<string, Form> = {
  "sign-up": {
    rules: SIGNUP_FIELDS,
    schema: SignupSchema,
    valid: { name: "Asha Patel", email, mobile: "", password: "secret12", confirmPassword: "secret12", terms: "on" },
  },
  login: { rules: LOGIN_FIELDS, schema: LoginSchema, valid: { email, password: "secret12" } },
  profile: { rules: PROFILE_FIELDS, schema: ProfileSchema, valid: { name: "Asha Patel", email, mobile: "" } },
  // The profile's 'Current Password' (only an email change needs it: empty is fine here).
  "profile's current password": { rules: EMAIL_CHANGE_FIELDS, schema: CurrentPasswordSchema, valid: { currentPassword: "" } },
  "change password": {
    rules: CHANGE_PASSWORD_FIELDS,
    schema: ChangePasswordSchema,
    valid: { currentPassword: "oldpass1", newPassword: "newpass1", confirmPassword: "newpass1" },
  },
  "forgot password": { rules: FORGOT_PASSWORD_FIELDS, schema: EmailOnlySchema, valid: { email } },
  "reset password": {
    rules: RESET_PASSWORD_FIELDS,
    schema: ResetPasswordSchema,
    valid: { token: "1.abc", password: "newpass1", confirmPassword: "newpass1" },
  },
  contact: {
    rules: CONTACT_FIELDS,
    schema: ContactSchema,
    valid: { name: "Priya Sharma", email, phone: "", subject: "Feedback", message: "Where is my sofa?" },
  },
  newsletter: { rules: NEWSLETTER_FIELDS, schema: NewsletterSchema, valid: { email } },
};

/** A value of exactly `length` characters that the field takes when it is not too long. */
function valueOf(field: string, length: number): string {
  if (field === "email") return `${"a".repeat(length - "@example.com".length)}@example.com`;
  if (field === "phone") return "9".repeat(length);
  return "x".repeat(length);
}

/** A password and its confirmation change together, so only the length is tried. */
const PAIRED: Record<string, string[]> = {
  password: ["confirmPassword"],
  newPassword: ["confirmPassword"],
  confirmPassword: ["password", "newPassword"],
};

function withValue(valid: Fields, field: string, value: string): Fields {
  const out = { ...valid, [field]: value };
  for (const other of PAIRED[field] ?? []) if (other in valid) out[other] = value;
  return out;
}

describe.each(Object.entries(FORMS))("the %s form's field rules and schema agree", (_name, { rules, schema, valid }) => {
  it("the complete input is accepted", () => {
    expect(schema.safeParse(valid).success).toBe(true);
  });

  const required = Object.keys(rules).filter((field) => rules[field]!.required);
  it.each(required)("required %s refuses an empty value", (field) => {
    expect(schema.safeParse({ ...valid, [field]: "" }).success).toBe(false);
  });

  // The mobile's maxLength leaves room for its written forms; the schema checks the number itself.
  const limited = Object.keys(rules).filter((field) => rules[field]!.maxLength !== undefined && field !== "mobile");
  it.each(limited)("%s accepts maxLength characters and refuses one more", (field) => {
    const max = rules[field]!.maxLength!;
    expect(schema.safeParse(withValue(valid, field, valueOf(field, max))).success).toBe(true);
    expect(schema.safeParse(withValue(valid, field, valueOf(field, max + 1))).success).toBe(false);
  });
});

describe("the mobile's maxLength", () => {
  it("fits its longest written form", () => {
    const longest = "0091 98765 43210";
    expect(longest).toHaveLength(MOBILE_MAX);
    expect(SignupSchema.safeParse({ ...FORMS["sign-up"]!.valid, mobile: longest }).success).toBe(true);
    expect(ProfileSchema.safeParse({ ...FORMS.profile!.valid, mobile: longest }).success).toBe(true);
  });
});
