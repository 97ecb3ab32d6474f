import { describe, expect, it } from "vitest";
import { AppError } from "~/lib/errors.server";
import { parseWith } from "~/lib/http.server";
import {
  ChangePasswordSchema,
  ConfirmEmailSchema,
  CurrentPasswordSchema,
  LoginSchema,
  MESSAGES,
  normaliseMobile,
  OtpSchema,
  PASSWORD_MAX,
  ProfileSchema,
  RegisterSchema,
  ResetPasswordSchema,
  SignupSchema,
} from "./account-schemas";
import { MAX_LENGTH } from "./schemas";

/** What parseWith throws for this input: the first message (the banner) and the field messages. */
function failure(schema: Parameters<typeof parseWith>[0], input: unknown): { message: string; fieldErrors: Record<string, string> } {
  try {
    parseWith(schema, input);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    const e = error as AppError;
    expect(e.status).toBe(400);
    return { message: e.message, fieldErrors: e.fieldErrors ?? {} };
  }
  throw new Error(`expected ${JSON.stringify(input)} to be refused`);
}

const signup = (over: Record<string, unknown> = {}) => ({
  name: "Asha Patel",
  email: "asha@example.com",
  mobile: "",
  password: "secret12",
  confirmPassword: "secret12",
  terms: "on",
  ...over,
});

describe("SignupSchema: the order of checks in docs/product.md", () => {
  it.each([
    ["name", { name: "" }],
    ["email", { email: "" }],
    ["password", { password: "", confirmPassword: "" }],
    ["whitespace-only name", { name: "   " }],
    ["whitespace-only email", { email: " \t " }],
    ["whitespace-only password", { password: "      ", confirmPassword: "      " }],
    ["missing fields", { name: undefined, email: undefined, password: undefined }],
  ])("empty %s → 'Please fill in all required fields'", (_label, over) => {
    const { message, fieldErrors } = failure(SignupSchema, signup(over));
    expect(message).toBe("Please fill in all required fields");
    expect(message).toBe(MESSAGES.fillRequired);
    expect(Object.values(fieldErrors).every((m) => m === MESSAGES.fillRequired)).toBe(true);
  });

  it("a required field missing wins over passwords that differ and are short", () => {
    const { message, fieldErrors } = failure(SignupSchema, signup({ name: "", password: "abc", confirmPassword: "xyz" }));
    expect(message).toBe("Please fill in all required fields");
    expect(fieldErrors).toEqual({ name: MESSAGES.fillRequired });
  });

  it("every empty required field is named", () => {
    const { fieldErrors } = failure(SignupSchema, signup({ name: "", email: "", password: "", confirmPassword: "" }));
    expect(fieldErrors).toEqual({ name: MESSAGES.fillRequired, email: MESSAGES.fillRequired, password: MESSAGES.fillRequired });
  });

  it("then 'Passwords do not match', also when the password is too short", () => {
    expect(failure(SignupSchema, signup({ confirmPassword: "secret13" })).message).toBe("Passwords do not match");
    const both = failure(SignupSchema, signup({ password: "abc", confirmPassword: "abd" }));
    expect(both.message).toBe("Passwords do not match");
    expect(both.fieldErrors).toMatchObject({
      confirmPassword: "Passwords do not match",
      password: "Password must be at least 6 characters long",
    });
  });

  it("then 'Password must be at least 6 characters long'", () => {
    const { message, fieldErrors } = failure(SignupSchema, signup({ password: "abc12", confirmPassword: "abc12" }));
    expect(message).toBe("Password must be at least 6 characters long");
    expect(fieldErrors).toEqual({ password: "Password must be at least 6 characters long" });
    // Exactly 6 is enough.
    expect(SignupSchema.safeParse(signup({ password: "abc123", confirmPassword: "abc123" })).success).toBe(true);
  });

  it("accepts a complete form and normalises it", () => {
    const out = parseWith(SignupSchema, signup({ name: "  Asha Patel ", email: "  Asha.Patel@Example.COM ", mobile: "" }));
    expect(out).toEqual({ name: "Asha Patel", email: "asha.patel@example.com", mobile: null, password: "secret12" });
  });

  it("keeps the password exactly as typed (no trimming)", () => {
    expect(parseWith(SignupSchema, signup({ password: " pass word ", confirmPassword: " pass word " })).password).toBe(" pass word ");
  });

  it("refuses a malformed email with the email message", () => {
    const { message, fieldErrors } = failure(SignupSchema, signup({ email: "not-an-email" }));
    expect(message).toBe(MESSAGES.email);
    expect(fieldErrors.email).toBe(MESSAGES.email);
  });

  it.each([
    ["9876543210", "9876543210"],
    ["6000000000", "6000000000"],
    ["+91 98765 43210", "9876543210"],
    ["+919876543210", "9876543210"],
    ["98765-43210", "9876543210"],
    [" 98765 43210 ", "9876543210"],
  ])("mobile %j is accepted as %s", (mobile, expected) => {
    expect(parseWith(SignupSchema, signup({ mobile })).mobile).toBe(expected);
  });

  it("mobile is optional: missing or blank becomes null", () => {
    expect(parseWith(SignupSchema, signup({ mobile: undefined })).mobile).toBeNull();
    expect(parseWith(SignupSchema, signup({ mobile: "   " })).mobile).toBeNull();
  });

  it.each(["5876543210", "987654321", "98765432101", "98765abcde", "+1 9876543210", "0000000000"])(
    "mobile %j is refused with the mobile message",
    (mobile) => {
      const { message, fieldErrors } = failure(SignupSchema, signup({ mobile }));
      expect(message).toBe(MESSAGES.mobile);
      expect(message).toBe("Please enter a valid 10-digit mobile number starting with 6, 7, 8 or 9");
      expect(fieldErrors).toEqual({ mobile: MESSAGES.mobile });
    },
  );

  it("the terms checkbox is required", () => {
    for (const terms of [undefined, "", "off", "no"]) {
      const { message, fieldErrors } = failure(SignupSchema, signup({ terms }));
      expect(message).toBe("Please agree to the Terms and Conditions");
      expect(fieldErrors).toEqual({ terms: MESSAGES.terms });
    }
    expect(SignupSchema.safeParse(signup({ terms: "true" })).success).toBe(true);
  });

  it("refuses an overlong name and an overlong password", () => {
    const name = failure(SignupSchema, signup({ name: "A".repeat(MAX_LENGTH.name + 1) }));
    expect(name.message).toBe(MESSAGES.nameLong);
    expect(name.fieldErrors).toEqual({ name: MESSAGES.nameLong });
    expect(SignupSchema.safeParse(signup({ name: "A".repeat(MAX_LENGTH.name) })).success).toBe(true);

    const long = "p".repeat(PASSWORD_MAX + 1);
    const password = failure(SignupSchema, signup({ password: long, confirmPassword: long }));
    expect(password.message).toBe(MESSAGES.passwordLong);
    const max = "p".repeat(PASSWORD_MAX);
    expect(SignupSchema.safeParse(signup({ password: max, confirmPassword: max })).success).toBe(true);
  });

  it("refuses an overlong email", () => {
    const email = `${"a".repeat(250)}@example.com`;
    expect(failure(SignupSchema, signup({ email })).fieldErrors.email).toBe("That email address is too long");
  });

  it("refuses non-text values instead of coercing them", () => {
    expect(SignupSchema.safeParse(signup({ name: { first: "A" } })).success).toBe(false);
    expect(SignupSchema.safeParse(signup({ password: ["secret12"], confirmPassword: ["secret12"] })).success).toBe(false);
  });
});

describe("RegisterSchema (API bodies)", () => {
  it("needs no confirmation and no terms, and normalises like the page", () => {
    const out = parseWith(RegisterSchema, { name: " Ravi ", email: "Ravi@Example.com ", password: "secret12", mobile: "+91 91234 56789" });
    expect(out).toEqual({ name: "Ravi", email: "ravi@example.com", mobile: "9123456789", password: "secret12" });
  });

  it("keeps the messages of docs/product.md", () => {
    expect(failure(RegisterSchema, { name: "", email: "r@example.com", password: "secret12" }).message).toBe(MESSAGES.fillRequired);
    expect(failure(RegisterSchema, { name: "R", email: "r@example.com", password: "short" }).message).toBe(MESSAGES.passwordShort);
    expect(failure(RegisterSchema, { name: "R", email: "r@example.com", password: "secret12", mobile: "12345" }).message).toBe(
      MESSAGES.mobile,
    );
  });
});

describe("MESSAGES", () => {
  it("has no 'unverified' message: before its code is verified there is no account to log in to", () => {
    expect(MESSAGES).not.toHaveProperty("unverified");
    expect(MESSAGES.invalidLogin).toBe("Invalid email or password");
  });
});

describe("normaliseMobile", () => {
  it("returns the 10 digits or null", () => {
    expect(normaliseMobile("0091 98765 43210")).toBe("9876543210");
    expect(normaliseMobile("7777777777")).toBe("7777777777");
    expect(normaliseMobile("+91 5876543210")).toBeNull();
    expect(normaliseMobile("")).toBeNull();
  });
});

describe("LoginSchema", () => {
  it.each([
    [{ email: "", password: "" }],
    [{ email: "a@example.com", password: "" }],
    [{ email: "", password: "secret12" }],
    [{ email: "   ", password: "secret12" }],
    [{}],
  ])("%j → 'Please enter both email and password'", (input) => {
    expect(failure(LoginSchema, input).message).toBe("Please enter both email and password");
  });

  it("names the field that is missing", () => {
    expect(failure(LoginSchema, { email: "a@example.com", password: "" }).fieldErrors).toEqual({ password: MESSAGES.loginRequired });
    expect(failure(LoginSchema, { email: "", password: "secret12" }).fieldErrors).toEqual({ email: MESSAGES.loginRequired });
  });

  it("lower-cases and trims the email, keeps the password as typed", () => {
    expect(parseWith(LoginSchema, { email: "  Some.One@Example.COM ", password: " secret12 " })).toEqual({
      email: "some.one@example.com",
      password: " secret12 ",
    });
  });

  it("refuses overlong values", () => {
    expect(failure(LoginSchema, { email: "a@example.com", password: "x".repeat(PASSWORD_MAX + 1) }).message).toBe(MESSAGES.passwordLong);
    expect(failure(LoginSchema, { email: `${"a".repeat(260)}@example.com`, password: "secret12" }).fieldErrors.email).toMatch(/too long/);
  });
});

describe("OtpSchema", () => {
  const email = "otp@example.com";

  it("accepts a 4-digit string, keeping a leading zero", () => {
    expect(parseWith(OtpSchema, { email, otp: "0123" })).toEqual({ email, otp: "0123" });
    expect(parseWith(OtpSchema, { email, otp: " 4321 " }).otp).toBe("4321");
  });

  it("accepts the four boxes as an array of digits", () => {
    expect(parseWith(OtpSchema, { email, otp: ["0", "1", "2", "3"] }).otp).toBe("0123");
  });

  it("normalises the email", () => {
    expect(parseWith(OtpSchema, { email: " OTP@Example.com ", otp: "1234" }).email).toBe(email);
  });

  it.each([["123"], ["12345"], ["12a4"], ["abcd"], [""], [["1", "2", "3"]], [["1", "2", "", "4"]], [undefined], ["1 23"]])(
    "refuses %j with the OTP message",
    (otp) => {
      const { message, fieldErrors } = failure(OtpSchema, { email, otp });
      expect(message).toBe("Please enter the 4-digit OTP");
      expect(fieldErrors).toEqual({ otp: MESSAGES.otp });
    },
  );

  it("refuses a missing or malformed email", () => {
    expect(failure(OtpSchema, { otp: "1234" }).fieldErrors.email).toBe(MESSAGES.email);
    expect(failure(OtpSchema, { email: "nope", otp: "1234" }).fieldErrors.email).toBe(MESSAGES.email);
  });
});

describe("ConfirmEmailSchema and CurrentPasswordSchema (an email change)", () => {
  it("takes the code as 4 digits, a number, or the four boxes", () => {
    expect(parseWith(ConfirmEmailSchema, { code: " 0421 " })).toEqual({ code: "0421" });
    expect(parseWith(ConfirmEmailSchema, { code: 421 }).code).toBe("0421");
    expect(parseWith(ConfirmEmailSchema, { code: ["0", "4", "2", "1"] }).code).toBe("0421");
  });

  it.each([["123"], ["12345"], ["12a4"], [""], [["1", "2", "3"]], [undefined], [true], [{ code: "1234" }]])(
    "refuses %j on the code field",
    (code) => {
      expect(failure(ConfirmEmailSchema, { code })).toEqual({ message: MESSAGES.emailCode, fieldErrors: { code: MESSAGES.emailCode } });
    },
  );

  it("the current password may be left out (only a new email needs it), but not be overlong", () => {
    expect(parseWith(CurrentPasswordSchema, {})).toEqual({ currentPassword: "" });
    expect(parseWith(CurrentPasswordSchema, { currentPassword: "secret12" })).toEqual({ currentPassword: "secret12" });
    expect(failure(CurrentPasswordSchema, { currentPassword: "x".repeat(PASSWORD_MAX + 1) }).fieldErrors).toEqual({
      currentPassword: MESSAGES.passwordLong,
    });
  });
});

describe("ProfileSchema", () => {
  it("trims, lower-cases the email and normalises the mobile", () => {
    expect(parseWith(ProfileSchema, { name: "  Meera  ", email: " Meera@Example.com", mobile: "+91 99999 88888" })).toEqual({
      name: "Meera",
      email: "meera@example.com",
      mobile: "9999988888",
    });
    expect(parseWith(ProfileSchema, { name: "Meera", email: "meera@example.com", mobile: "" }).mobile).toBeNull();
    expect(parseWith(ProfileSchema, { name: "Meera", email: "meera@example.com" }).mobile).toBeNull();
  });

  it("requires name and email", () => {
    const { fieldErrors } = failure(ProfileSchema, { name: " ", email: "", mobile: "" });
    expect(fieldErrors).toEqual({ name: "Name is required", email: "Email is required" });
  });

  it("refuses a bad email, a bad mobile and an overlong name", () => {
    expect(failure(ProfileSchema, { name: "M", email: "meera@", mobile: "" }).fieldErrors).toEqual({ email: MESSAGES.email });
    expect(failure(ProfileSchema, { name: "M", email: "m@example.com", mobile: "12345" }).fieldErrors).toEqual({ mobile: MESSAGES.mobile });
    expect(failure(ProfileSchema, { name: "M".repeat(MAX_LENGTH.name + 1), email: "m@example.com" }).fieldErrors).toEqual({
      name: MESSAGES.nameLong,
    });
  });
});

describe("ChangePasswordSchema", () => {
  const ok = { currentPassword: "oldpass1", newPassword: "newpass1", confirmPassword: "newpass1" };

  it("accepts a valid change", () => {
    expect(ChangePasswordSchema.parse(ok)).toEqual(ok);
  });

  it("requires all three fields", () => {
    const { message, fieldErrors } = failure(ChangePasswordSchema, { currentPassword: "", newPassword: "newpass1", confirmPassword: "" });
    expect(message).toBe(MESSAGES.fillRequired);
    expect(fieldErrors).toEqual({ currentPassword: MESSAGES.fillRequired, confirmPassword: MESSAGES.fillRequired });
  });

  it("refuses a confirmation that differs", () => {
    const { message, fieldErrors } = failure(ChangePasswordSchema, { ...ok, confirmPassword: "newpass2" });
    expect(message).toBe("Passwords do not match");
    expect(fieldErrors).toEqual({ confirmPassword: "Passwords do not match" });
  });

  it("refuses a short new password on the newPassword field", () => {
    const { message, fieldErrors } = failure(ChangePasswordSchema, { ...ok, newPassword: "abc", confirmPassword: "abc" });
    expect(message).toBe("Password must be at least 6 characters long");
    expect(fieldErrors).toEqual({ newPassword: MESSAGES.passwordShort });
  });

  it("refuses a new password equal to the current one", () => {
    const { message, fieldErrors } = failure(ChangePasswordSchema, {
      currentPassword: "samepass",
      newPassword: "samepass",
      confirmPassword: "samepass",
    });
    expect(message).toBe("Your new password must be different from the current one");
    expect(Object.keys(fieldErrors)).toEqual(["newPassword"]);
  });

  it("a whitespace-only new password counts as missing", () => {
    const blank = failure(ChangePasswordSchema, { ...ok, newPassword: "      ", confirmPassword: "      " });
    expect(blank.message).toBe("Please fill in all required fields");
    expect(blank.fieldErrors).toEqual({ newPassword: MESSAGES.fillRequired, confirmPassword: MESSAGES.fillRequired });
    // Also when only the new password is blank: that field is named, not a mismatch.
    const onlyNew = failure(ChangePasswordSchema, { ...ok, newPassword: " \t  ", confirmPassword: "newpass1" });
    expect(onlyNew.message).toBe(MESSAGES.fillRequired);
    expect(onlyNew.fieldErrors).toEqual({ newPassword: MESSAGES.fillRequired });
  });

  it("spaces inside a new password are kept as typed", () => {
    const spaced = { ...ok, newPassword: " new pass ", confirmPassword: " new pass " };
    expect(ChangePasswordSchema.parse(spaced)).toEqual(spaced);
  });

  it("refuses overlong passwords", () => {
    const long = "x".repeat(PASSWORD_MAX + 1);
    expect(failure(ChangePasswordSchema, { ...ok, newPassword: long, confirmPassword: long }).message).toBe(MESSAGES.passwordLong);
    expect(failure(ChangePasswordSchema, { ...ok, currentPassword: long }).fieldErrors.currentPassword).toBe(MESSAGES.passwordLong);
  });
});

describe("ResetPasswordSchema", () => {
  it("accepts a matching new password with its token", () => {
    expect(ResetPasswordSchema.parse({ token: "1.abc", password: "newpass1", confirmPassword: "newpass1" })).toEqual({
      token: "1.abc",
      password: "newpass1",
      confirmPassword: "newpass1",
    });
  });

  it("requires both passwords", () => {
    const { message, fieldErrors } = failure(ResetPasswordSchema, { token: "1.abc", password: "", confirmPassword: "" });
    expect(message).toBe(MESSAGES.fillRequired);
    expect(fieldErrors).toEqual({ password: MESSAGES.fillRequired, confirmPassword: MESSAGES.fillRequired });
  });

  it("a whitespace-only password counts as missing", () => {
    const blank = failure(ResetPasswordSchema, { token: "1.abc", password: "      ", confirmPassword: "      " });
    expect(blank.message).toBe("Please fill in all required fields");
    expect(blank.fieldErrors).toEqual({ password: MESSAGES.fillRequired, confirmPassword: MESSAGES.fillRequired });
    const onlyPassword = failure(ResetPasswordSchema, { token: "1.abc", password: "   ", confirmPassword: "newpass1" });
    expect(onlyPassword.message).toBe(MESSAGES.fillRequired);
    expect(onlyPassword.fieldErrors).toEqual({ password: MESSAGES.fillRequired });
    // Spaces around real characters are part of the password.
    expect(ResetPasswordSchema.parse({ token: "1.abc", password: " new pass ", confirmPassword: " new pass " }).password).toBe(
      " new pass ",
    );
  });

  it("refuses a mismatch, then a short password", () => {
    expect(failure(ResetPasswordSchema, { token: "t", password: "newpass1", confirmPassword: "newpass2" }).message).toBe(
      MESSAGES.passwordsDiffer,
    );
    const short = failure(ResetPasswordSchema, { token: "t", password: "abc", confirmPassword: "abc" });
    expect(short.message).toBe(MESSAGES.passwordShort);
    expect(short.fieldErrors).toEqual({ password: MESSAGES.passwordShort });
  });
});
