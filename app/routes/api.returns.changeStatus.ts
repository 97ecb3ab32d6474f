import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiHandler } from "~/lib/api.server";
import { otherMethods, requireMutation } from "~/lib/api-params.server";
import { AppError } from "~/lib/errors.server";
import { readBody } from "~/lib/http.server";
import { parseStaffBody } from "~/web/admin.server";
import { decideReturn } from "~/models/returns/admin.server";
import { getStaffVisitor, requireStaff } from "~/web/staff.server";
import { requireApiUser } from "~/web/visitor.server";
import type { RoutePermissions } from "~/utils/staff-permissions";
import { RETURN_FIELDS, RETURN_MESSAGES } from "~/utils/returns";
import { IdSchema } from "~/utils/schemas";

const DecisionSchema = z
  .object({
    returnId: IdSchema,
    status: z.enum(["approved", "rejected", "returned"], { error: "Status must be one of approved, rejected, returned" }),
    note: z
      .string({ error: RETURN_MESSAGES.rejectNote })
      .trim()
      .max(RETURN_FIELDS.staffNote.maxLength, RETURN_MESSAGES.rejectNote)
      .optional(),
  })
  .refine((v) => v.status !== "rejected" || Boolean(v.note), { path: ["note"], message: RETURN_MESSAGES.rejectNote });

/**
 * What each decision needs: the body's `status` plays the part of a form's intent. Receiving the
 * goods is fulfilment's too; approving and rejecting are not.
 */
export const permissions = {
  action: { approved: "returns.decide", rejected: "returns.decide", returned: "returns.receive" },
} satisfies RoutePermissions;

/**
 * PUT `{ returnId, status, note? }`, the shop only (403 for a customer): approve or reject (with a
 * note) a requested return, or mark an approved one returned (stock back, refund queued).
 */
export const action = ({ request }: ActionFunctionArgs) =>
  apiHandler(async () => {
    requireMutation(request, ["PUT"]);
    if (!(await getStaffVisitor(request))) {
      await requireApiUser(request);
      throw new AppError(403, "Only the shop can decide on a return");
    }
    // The decision the body names is checked against the staff member's role before anything else of it is read.
    const body = await readBody(request);
    const status =
      typeof body.status === "string" && Object.hasOwn(permissions.action, body.status)
        ? (body.status as keyof typeof permissions.action)
        : null;
    const { actor } = await requireStaff(request, status ? permissions.action[status] : "returns.decide", { api: true });
    const input = parseStaffBody(DecisionSchema, body);
    return {
      success: true,
      return: await decideReturn(input.returnId, input.status, input.status === "rejected" ? input.note! : null, actor),
    };
  });
export const loader = otherMethods(["PUT"]);
