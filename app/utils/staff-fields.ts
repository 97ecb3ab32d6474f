// The staff management forms' rules and messages, zod-free so the pages' inputs read them too
// (the schemas are staff-schemas.ts).
import type { FieldRule } from "./forms";
import { MAX_LENGTH } from "./field-lengths";

export const STAFF_FIELDS = {
  name: { required: true, maxLength: 100 },
  email: { required: true, maxLength: MAX_LENGTH.email, type: "email" },
} satisfies Record<string, FieldRule>;

export const STAFF_MESSAGES = {
  emailTaken: "This email already belongs to a staff member. Send that account a new invitation, or enable it, instead.",
  notFound: "That staff member was not found.",
  lastOwner: "The shop must keep an active owner: make another staff member owner before disabling or demoting this one.",
  alreadyAccepted: "This staff member has set a password already: there is no invitation to send.",
  disabledNoInvite: "This account is disabled: enable it before sending an invitation.",
  inviteUnknown:
    "This invitation link is not valid. Check that you opened the whole link from the mail, or ask the shop's owner for a new one.",
  inviteUsed: "This invitation has been used already. Sign in with your email and password, or ask the shop's owner for a new invitation.",
  inviteExpired: "This invitation has expired. Ask the shop's owner to send you a new one.",
  accountDisabled: "This staff account is disabled. Ask the shop's owner if you need it.",
  resetInvalid: "This password reset link is invalid, used or expired. Please ask for a new one.",
  resetOwnTwoStep: "You cannot reset your own two-step sign-in here: set it up again from My account, or ask another owner.",
} as const;
