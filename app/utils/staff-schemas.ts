// Staff management forms (/admin/staff): an invitation, a role, an on/off switch. The invitation's
// and reset's password forms use the customers' ResetPasswordSchema (account-schemas.ts): the same
// password rules for staff and customers.
import { z } from "zod";
import { EmailSchema } from "./schemas";
import { STAFF_FIELDS } from "./staff-fields";
import { ROLE_LABELS, ROLES } from "./staff-permissions";

const ROLE_MESSAGE = `Choose a role: ${ROLES.map((r) => ROLE_LABELS[r]).join(", ")}`;

export const RoleSchema = z.enum(ROLES, { error: ROLE_MESSAGE });

export const InviteSchema = z.object({
  name: z
    .string({ error: "Name is required" })
    .trim()
    .min(1, "Name is required")
    .max(STAFF_FIELDS.name.maxLength, `Name must be at most ${STAFF_FIELDS.name.maxLength} characters`),
  email: EmailSchema,
  role: RoleSchema,
});
export type InviteInput = z.output<typeof InviteSchema>;

/** A checkbox-like switch sent as a value: "on" or "off" (the page's buttons say which). */
export const SwitchSchema = z.enum(["on", "off"], { error: "Choose on or off" }).transform((v) => v === "on");
