// The zod schemas of delivery by pincode (ADR 0017): a pincode asked about (the API, the product
// page), and the staff's zone form. They read the rules and messages of delivery.ts.
import { z } from "zod";
import { canonicalState } from "./checkout";
import { DELIVERY_MESSAGES, INDIAN_STATES, isPincode, MAX_ZONE_DAYS, ZONE_FIELDS, ZONE_KINDS } from "./delivery";

/** A pincode as typed: spaces set aside, six digits, the first not 0. */
export const PincodeSchema = z.preprocess(
  (v) => (typeof v === "number" ? String(v) : typeof v === "string" ? v.replace(/\s/g, "") : v),
  z.string({ error: DELIVERY_MESSAGES.pincode }).refine(isPincode, DELIVERY_MESSAGES.pincode),
);

const days = (name: string) =>
  z.preprocess(
    (v) => (typeof v === "string" && v.trim() !== "" ? Number(v.trim()) : v),
    z
      .number({ error: `${name} must be a whole number of business days` })
      .int(`${name} must be a whole number of business days`)
      .min(1, `${name} must be at least 1`)
      .max(MAX_ZONE_DAYS, `${name} must be at most ${MAX_ZONE_DAYS}`),
  );

const optionalText = (max: number) =>
  z.preprocess(
    (v) => (typeof v === "string" ? v.trim().replace(/\s+/g, " ") : v === undefined || v === null ? "" : v),
    z.string().max(max),
  );

const pincodeOrEmpty = z.preprocess(
  (v) => (typeof v === "string" ? v.replace(/\s/g, "") : v === undefined || v === null ? "" : v),
  z.string().refine((s) => s === "" || isPincode(s), DELIVERY_MESSAGES.pincode),
);

const checkbox = z.preprocess((v) => v === "on" || v === "1" || v === "true" || v === true, z.boolean());

/**
 * The staff's zone form: a state, a district of a state, or a pincode range (from ≤ to); the
 * days (min ≤ max); cash on delivery and served as checkboxes; a short label. The default
 * zone's form has no kind (its scope never changes): `kind: "default"` is given by the caller.
 */
export const ZoneFormSchema = z
  .object({
    kind: z.enum([...ZONE_KINDS, "default"], { error: "Choose what the zone covers" }),
    state: optionalText(ZONE_FIELDS.state.maxLength),
    district: optionalText(ZONE_FIELDS.district.maxLength),
    pincodeFrom: pincodeOrEmpty,
    pincodeTo: pincodeOrEmpty,
    minDays: days("Minimum days"),
    maxDays: days("Maximum days"),
    cod: checkbox,
    served: checkbox,
    label: optionalText(ZONE_FIELDS.label.maxLength).refine((s) => s.length > 0, "Label is required"),
  })
  .superRefine((v, ctx) => {
    if (v.maxDays < v.minDays) ctx.addIssue({ code: "custom", path: ["maxDays"], message: "Maximum days must be at least the minimum" });
    if (v.kind === "state" || v.kind === "district") {
      if (!v.state) ctx.addIssue({ code: "custom", path: ["state"], message: "State is required" });
      else if (!INDIAN_STATES.includes(canonicalState(v.state) as (typeof INDIAN_STATES)[number])) {
        ctx.addIssue({ code: "custom", path: ["state"], message: "Choose a state of India" });
      }
    }
    if (v.kind === "district" && !v.district) ctx.addIssue({ code: "custom", path: ["district"], message: "District is required" });
    if (v.kind === "range") {
      if (!v.pincodeFrom) ctx.addIssue({ code: "custom", path: ["pincodeFrom"], message: "The first pincode is required" });
      if (!v.pincodeTo) ctx.addIssue({ code: "custom", path: ["pincodeTo"], message: "The last pincode is required" });
      if (v.pincodeFrom && v.pincodeTo && Number(v.pincodeTo) < Number(v.pincodeFrom)) {
        ctx.addIssue({ code: "custom", path: ["pincodeTo"], message: "The last pincode must not be below the first" });
      }
    }
  })
  .transform((v) => ({
    kind: v.kind,
    state: v.kind === "state" || v.kind === "district" ? canonicalState(v.state) : null,
    district: v.kind === "district" ? v.district : null,
    pincodeFrom: v.kind === "range" ? Number(v.pincodeFrom) : null,
    pincodeTo: v.kind === "range" ? Number(v.pincodeTo) : null,
    days: { min: v.minDays, max: v.maxDays },
    cod: v.cod,
    served: v.served,
    label: v.label,
  }));
export type ZoneInput = z.output<typeof ZoneFormSchema>;
