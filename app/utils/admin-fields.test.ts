// The admin forms' field rules (what the inputs print) and their zod schemas (what the actions
// accept) agree: a required field refuses "", a field with maxLength takes max characters and
// refuses max + 1.
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { CATEGORY_FIELDS, PRODUCT_FIELDS } from "./admin-fields";
import { CategoryFormSchema, ProductFormSchema, productFormInput } from "./admin-schemas";
import type { FieldRule } from "./forms";

/** Fields (by their form name) whose message the schema gives for `input`. */
function refused(schema: z.ZodType, input: unknown): string[] {
  const result = schema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => String(issue.path[0] ?? "form"));
}

/** A value of `length` characters the field accepts when it is short enough. */
function ofLength(field: string, length: number): string {
  return field === "imgPath" ? `/images/${"x".repeat(length - "/images/".length)}` : "x".repeat(length);
}

function expectAgreement(
  name: string,
  rules: Record<string, FieldRule>,
  schema: z.ZodType,
  input: (field: string, value: string) => unknown,
) {
  describe(name, () => {
    it("a valid form passes", () => {
      expect(refused(schema, input("", ""))).toEqual([]);
    });
    for (const [field, rule] of Object.entries(rules)) {
      const issueKey = field === "specKey" || field === "specValue" ? "specifications" : field;
      if (rule.required) {
        it(`${field}: required, "" is refused`, () => {
          expect(refused(schema, input(field, ""))).toContain(issueKey);
        });
      }
      if (rule.maxLength !== undefined) {
        it(`${field}: maxLength ${rule.maxLength} is taken, one more refused`, () => {
          expect(refused(schema, input(field, ofLength(field, rule.maxLength!)))).toEqual([]);
          expect(refused(schema, input(field, ofLength(field, rule.maxLength! + 1)))).toContain(issueKey);
        });
      }
    }
  });
}

const CATEGORY: Record<string, string> = { title: "Outdoor", description: "Chairs and tables for the garden.", imgPath: "/images/c.svg" };
expectAgreement("CATEGORY_FIELDS and CategoryFormSchema", CATEGORY_FIELDS, CategoryFormSchema, (field, value) =>
  field ? { ...CATEGORY, [field]: value } : CATEGORY,
);

const PRODUCT: [string, string][] = [
  ["title", "Teak Garden Bench"],
  ["categoryId", "3"],
  ["price", "12500"],
  ["imgPath", "/images/products/bench.svg"],
  ["description", "A bench for two."],
  ["inStock", "on"],
  ["stock", "4"],
  ["specKey", "Material"],
  ["specValue", "Teak"],
];
/** The product form as posted (FormData, as the action reads it), with one field's value replaced. */
expectAgreement("PRODUCT_FIELDS and ProductFormSchema", PRODUCT_FIELDS, ProductFormSchema, (field, value) => {
  const form = new FormData();
  for (const [name, given] of PRODUCT) form.append(name, name === field ? value : given);
  return productFormInput(form);
});
