import { describe, expect, it } from "vitest";
import { CHECKOUT_MESSAGES, CheckoutSchema, IdempotencyKeySchema, PaymentProofSchema, SHIPPING_FIELDS, SHIPPING_MAX } from "./checkout";
import { LENGTH_CHECKED, requiredMessage, SHIPPING_RULES } from "./checkout-fields";
import { MAX_LENGTH } from "./schemas";

const VALID = {
  name: "Asha Patel",
  address: "12 Sagwan Lane, Navrangpura",
  city: "Ahmedabad",
  state: "Gujarat",
  pincode: "380009",
  phone: "9876543210",
  email: "asha@example.com",
} as const;

const parse = (overrides: Record<string, unknown> = {}) => CheckoutSchema.safeParse({ ...VALID, ...overrides });

/** Every issue as "path: message". */
function issues(overrides: Record<string, unknown> = {}): string[] {
  const result = parse(overrides);
  expect(result.success).toBe(false);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
}

function accepted(overrides: Record<string, unknown> = {}) {
  const result = parse(overrides);
  if (!result.success) throw new Error(`refused: ${JSON.stringify(result.error.issues)}`);
  return result.data;
}

describe("CheckoutSchema: a valid order", () => {
  it("parses into the shipping address and the payment method", () => {
    expect(accepted()).toEqual({ shipping: { ...VALID }, paymentMethod: "cod" });
  });

  it("trims, collapses inner spaces in name and city, and lower-cases the email", () => {
    const data = accepted({ name: "  Asha   Patel ", city: " New   Delhi ", address: "  12 Lane  ", email: "  Asha@Example.COM " });
    expect(data.shipping.name).toBe("Asha Patel");
    expect(data.shipping.city).toBe("New Delhi");
    expect(data.shipping.address).toBe("12 Lane");
    expect(data.shipping.email).toBe("asha@example.com");
  });
});

describe("CheckoutSchema: required fields", () => {
  const expectedMessages = {
    name: "Name is required",
    address: "Address is required",
    city: "City is required",
    state: "State is required",
    pincode: "Pincode is required",
    phone: "Phone is required",
    email: "Email is required",
  } as const;

  it.each(SHIPPING_FIELDS.map((f) => [f, expectedMessages[f]] as const))("empty %s: %j and nothing else", (field, message) => {
    for (const empty of ["", "   ", undefined, null]) {
      expect(issues({ [field]: empty })).toEqual([`${field}: ${message}`]);
    }
  });

  it("an empty form names all seven fields, each once, with the documented message", () => {
    const result = CheckoutSchema.safeParse({});
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error.issues.map((i) => [i.path, i.message])).toEqual(SHIPPING_FIELDS.map((f) => [[f], expectedMessages[f]]));
  });
});

describe("CheckoutSchema: phone", () => {
  it.each([
    ["9876543210", "9876543210"],
    ["98765 43210", "9876543210"],
    ["98765-43210", "9876543210"],
    ["+91 98765 43210", "9876543210"],
    ["+919876543210", "9876543210"],
    ["+91-98765-43210", "9876543210"],
    [" 98 76 54 32 10 ", "9876543210"],
  ])("%j is accepted as %s", (input, phone) => {
    expect(accepted({ phone }).shipping.phone).toBe(phone);
    expect(accepted({ phone: input }).shipping.phone).toBe(phone);
  });

  it.each(["987654321", "98765432100", "98765x3210", "phone", "+1 9876543210", "+91 987654321", "(987) 654-3210", "9876543210!"])(
    "%j is refused",
    (phone) => {
      expect(issues({ phone })).toEqual([`phone: ${CHECKOUT_MESSAGES.phone}`]);
    },
  );

  it("the message is the documented one", () => {
    expect(CHECKOUT_MESSAGES.phone).toBe("Please enter a valid 10-digit phone number");
  });

  it("a JSON number is accepted", () => {
    expect(accepted({ phone: 9876543210 }).shipping.phone).toBe("9876543210");
  });
});

describe("CheckoutSchema: email", () => {
  it.each(["a@b.co", "first.last+tag@mail.example.in", "x@y.z"])("%j is accepted", (email) => {
    expect(accepted({ email }).shipping.email).toBe(email.toLowerCase());
  });

  it.each(["asha", "asha@", "asha@example", "@example.com", "asha@@example.com", "as ha@example.com", "asha@exa mple.com", "asha@.com."])(
    "%j is refused",
    (email) => {
      expect(issues({ email })).toEqual(["email: Please enter a valid email address"]);
    },
  );

  it("an address over the email limit is refused", () => {
    const email = `${"a".repeat(MAX_LENGTH.email)}@example.com`;
    expect(issues({ email })).toEqual([`email: Email must be at most ${SHIPPING_MAX.email} characters`]);
  });
});

describe("CheckoutSchema: pincode", () => {
  it.each(["380001", "110001", "999999"])("%j is accepted", (pincode) => {
    expect(accepted({ pincode }).shipping.pincode).toBe(pincode);
  });

  it("spaces are set aside", () => {
    expect(accepted({ pincode: " 380 001 " }).shipping.pincode).toBe("380001");
  });

  it("a JSON number is accepted as its digits", () => {
    expect(accepted({ pincode: 380001 }).shipping.pincode).toBe("380001");
  });

  it.each(["38000", "3800011", "038000", "000000", "38000a", "380-001", "abcdef", 38000])("%j is refused", (pincode) => {
    expect(issues({ pincode })).toEqual(["pincode: Please enter a valid 6-digit pincode"]);
  });
});

describe("CheckoutSchema: payment method", () => {
  it("defaults to cod when missing or empty", () => {
    expect(accepted().paymentMethod).toBe("cod");
    expect(accepted({ paymentMethod: "" }).paymentMethod).toBe("cod");
    expect(accepted({ paymentMethod: null }).paymentMethod).toBe("cod");
  });

  it("accepts cod and online", () => {
    expect(accepted({ paymentMethod: "cod" }).paymentMethod).toBe("cod");
    expect(accepted({ paymentMethod: "online" }).paymentMethod).toBe("online");
  });

  it.each(["card", "COD", "Online", 1, true])("refuses %j", (paymentMethod) => {
    expect(issues({ paymentMethod })).toEqual([`paymentMethod: ${CHECKOUT_MESSAGES.paymentMethod}`]);
  });
});

describe("CheckoutSchema: state", () => {
  it.each([
    ["gujarat", "Gujarat"],
    ["GUJARAT", "Gujarat"],
    ["  tamil   nadu ", "Tamil Nadu"],
    ["jammu and kashmir", "Jammu and Kashmir"],
    ["Gujarat", "Gujarat"],
  ])("%j becomes %j", (state, canonical) => {
    expect(accepted({ state }).shipping.state).toBe(canonical);
  });

  it("unknown text is kept, trimmed (inner runs of spaces collapsed)", () => {
    expect(accepted({ state: "  Some   Region " }).shipping.state).toBe("Some Region");
  });
});

describe("CheckoutSchema: lengths and types", () => {
  it.each([
    ["name", MAX_LENGTH.name],
    ["address", 300],
    ["city", 80],
    ["state", 80],
  ] as const)("%s: %i characters pass, one more is refused", (field, max) => {
    expect(SHIPPING_MAX[field]).toBe(max);
    expect(parse({ [field]: "a".repeat(max) }).success).toBe(true);
    expect(issues({ [field]: "a".repeat(max + 1) })).toEqual([
      `${field}: ${field[0]!.toUpperCase()}${field.slice(1)} must be at most ${max} characters`,
    ]);
  });

  it("an over-long phone or pincode is refused by its own format rule", () => {
    expect(issues({ phone: "9".repeat(40) })).toEqual([`phone: ${CHECKOUT_MESSAGES.phone}`]);
    expect(issues({ pincode: "1".repeat(40) })).toEqual([`pincode: ${CHECKOUT_MESSAGES.pincode}`]);
  });

  it("objects, arrays and booleans are not text", () => {
    for (const bad of [{}, ["Asha"], true]) {
      const result = parse({ name: bad });
      expect(result.success).toBe(false);
      if (!result.success) expect(result.error.issues.some((i) => i.path[0] === "name")).toBe(true);
    }
  });

  it("several bad fields are all reported, each on its own path", () => {
    const paths = issues({ name: "", phone: "123", email: "nope", pincode: "12" }).map((s) => s.split(":")[0]);
    expect(paths.sort()).toEqual(["email", "name", "phone", "pincode"]);
  });
});

describe("the field rules (the inputs' attributes) and CheckoutSchema agree", () => {
  it.each(SHIPPING_FIELDS)("%s: required, and the schema refuses it empty", (field) => {
    expect(SHIPPING_RULES[field].required).toBe(true);
    expect(issues({ [field]: "" })).toEqual([`${field}: ${requiredMessage(field)}`]);
    expect(issues({ [field]: "   " })).toEqual([`${field}: ${requiredMessage(field)}`]);
  });

  it.each(LENGTH_CHECKED)("%s: maxLength characters pass, one more is refused", (field) => {
    const max = SHIPPING_RULES[field].maxLength;
    const fill = (n: number) => (field === "email" ? `${"a".repeat(n - "@example.com".length)}@example.com` : "a".repeat(n));
    expect(fill(max)).toHaveLength(max);
    expect(parse({ [field]: fill(max) }).success).toBe(true);
    expect(issues({ [field]: fill(max + 1) })).toEqual([
      `${field}: ${field[0]!.toUpperCase()}${field.slice(1)} must be at most ${max} characters`,
    ]);
  });

  it("phone and pincode: the longest valid values fit their maxLength, and their formats refuse more", () => {
    expect(SHIPPING_RULES.pincode.maxLength).toBe(6);
    expect(accepted({ pincode: "380009" }).shipping.pincode).toBe("380009");
    expect(issues({ pincode: "3800091" })).toEqual([`pincode: ${CHECKOUT_MESSAGES.pincode}`]);
    const phone = "+91 98765-43210";
    expect(phone.length).toBeLessThanOrEqual(SHIPPING_RULES.phone.maxLength);
    expect(accepted({ phone }).shipping.phone).toBe("9876543210");
    expect(issues({ phone: "+91 98765-432100" })).toEqual([`phone: ${CHECKOUT_MESSAGES.phone}`]);
  });

  it("the input types are the browser's: tel for the phone, email for the email", () => {
    expect(SHIPPING_RULES.phone.type).toBe("tel");
    expect(SHIPPING_RULES.email.type).toBe("email");
    expect(SHIPPING_MAX).toEqual(Object.fromEntries(SHIPPING_FIELDS.map((f) => [f, SHIPPING_RULES[f].maxLength])));
  });
});

describe("IdempotencyKeySchema", () => {
  it("accepts 16 to 64 characters of [A-Za-z0-9_-]", () => {
    for (const key of ["a".repeat(16), "Ab3_-".repeat(12) + "abcd", crypto.randomUUID(), "x".repeat(64)]) {
      expect(IdempotencyKeySchema.safeParse(key).success).toBe(true);
    }
  });

  it.each([
    "a".repeat(15),
    "a".repeat(65),
    "",
    "abc def ghi jkl mno",
    "a".repeat(15) + "!",
    "ääääääääääääääää",
    1234567890123456,
    undefined,
  ])("refuses %j with the out-of-date message", (key) => {
    const result = IdempotencyKeySchema.safeParse(key);
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error.issues[0]!.message).toBe("The form is out of date. Please try again.");
  });
});

describe("PaymentProofSchema", () => {
  const proof = {
    razorpay_order_id: "order_ABCDEFGHIJKLMN",
    razorpay_payment_id: "pay_ABCDEFGHIJKLMN",
    razorpay_signature: "a".repeat(64),
  };

  it("accepts the three callback fields, trimmed", () => {
    const result = PaymentProofSchema.safeParse({
      razorpay_order_id: ` ${proof.razorpay_order_id} `,
      razorpay_payment_id: proof.razorpay_payment_id,
      razorpay_signature: `${proof.razorpay_signature}\n`,
    });
    expect(result.success && result.data).toEqual(proof);
  });

  it.each(["razorpay_order_id", "razorpay_payment_id", "razorpay_signature"] as const)("%s missing or blank is required", (field) => {
    for (const value of [undefined, "", "   "]) {
      const result = PaymentProofSchema.safeParse({ ...proof, [field]: value });
      expect(result.success).toBe(false);
      if (!result.success) expect(result.error.issues.map((i) => [i.path, i.message])).toEqual([[[field], `${field} is required`]]);
    }
  });

  it("refuses over-long values", () => {
    for (const [field, max] of [
      ["razorpay_order_id", 64],
      ["razorpay_payment_id", 64],
      ["razorpay_signature", 256],
    ] as const) {
      expect(PaymentProofSchema.safeParse({ ...proof, [field]: "a".repeat(max) }).success).toBe(true);
      const result = PaymentProofSchema.safeParse({ ...proof, [field]: "a".repeat(max + 1) });
      expect(result.success).toBe(false);
      if (!result.success) expect(result.error.issues[0]!.message).toBe(`${field} is too long`);
    }
  });
});
