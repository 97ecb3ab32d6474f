// The return forms' schemas (ADR 0025): the customer's request and the staff's decision.
import { z } from "zod";
import { RETURN_FIELDS, RETURN_FILTERS, RETURN_MESSAGES, RETURN_REASON_KEYS } from "./returns";
import { IdSchema, QuantitySchema } from "./schemas";

export const ReturnRequestSchema = z.object({
  reason: z.enum(RETURN_REASON_KEYS as [string, ...string[]], { error: RETURN_MESSAGES.reason }),
  details: z
    .string({ error: RETURN_MESSAGES.details })
    .trim()
    .min(1, RETURN_MESSAGES.details)
    .max(RETURN_FIELDS.details.maxLength, RETURN_MESSAGES.details),
  lines: z
    .array(z.object({ orderItemId: IdSchema, quantity: QuantitySchema }), { error: RETURN_MESSAGES.nothingChosen })
    .min(1, RETURN_MESSAGES.nothingChosen)
    .max(50, RETURN_MESSAGES.nothingChosen),
});
export type ReturnRequestInput = z.infer<typeof ReturnRequestSchema>;

export const ReturnDecisionSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("approve-return"), returnId: IdSchema }),
    z.object({
      intent: z.literal("reject-return"),
      returnId: IdSchema,
      note: z
        .string({ error: RETURN_MESSAGES.rejectNote })
        .trim()
        .min(1, RETURN_MESSAGES.rejectNote)
        .max(RETURN_FIELDS.staffNote.maxLength, RETURN_MESSAGES.rejectNote),
    }),
    z.object({ intent: z.literal("receive-return"), returnId: IdSchema }),
  ],
  { error: "Unknown return action" },
);
export type ReturnDecision = z.infer<typeof ReturnDecisionSchema>;

/**
 * The request form's fields as the schema's input: a line for every `qty-{orderItemId}` field
 * that is not "0" (its value unchecked: the schema says what is wrong with it), at most 60.
 */
export function returnRequestFromForm(form: FormData): Record<string, unknown> {
  const lines: { orderItemId: string; quantity: FormDataEntryValue }[] = [];
  for (const [name, value] of form) {
    const match = /^qty-(\d{1,10})$/.exec(name);
    if (match && value !== "0" && lines.length < 60) lines.push({ orderItemId: match[1]!, quantity: value });
  }
  return { reason: form.get("reason") ?? undefined, details: form.get("details") ?? undefined, lines };
}

/** The staff's returns list's GET form: anything unknown falls back (a list never fails on its URL). */
export const ReturnQueueQuerySchema = z.object({
  status: z.enum(RETURN_FILTERS).catch("open"),
});
