import { apiHandler } from "./api.server";
import { AppError } from "./errors.server";
import { assertSameOrigin } from "./http.server";
import { SlugSchema } from "~/utils/schemas";

/** `?slug=` of a catalogue API call, validated before it reaches a query. */
export function slugParam(request: Request): string {
  const result = SlugSchema.safeParse(new URL(request.url).searchParams.get("slug") ?? "");
  if (!result.success)
    throw new AppError(400, result.error.issues[0]?.message ?? "A slug is required", {
      fieldErrors: {
        slug: result.error.issues[0]?.message ?? "A slug is required",
      },
    });
  return result.data;
}

/** The first line of every API action: cross-site check (403), then the method (405). */
export function requireMutation(request: Request, methods: string[]) {
  assertSameOrigin(request);
  if (!methods.includes(request.method.toUpperCase())) {
    throw new AppError(405, `Method not allowed. Use ${methods.join(" or ")}.`, { headers: { Allow: methods.join(", ") } });
  }
}

/**
 * The handler for the methods an API path does not serve (export it as `loader` or `action`):
 * a state-changing request from another site still gets 403 first, anything else 405.
 */
export function otherMethods(allowed: string[]) {
  return ({ request }: { request: Request }) =>
    apiHandler(async () => {
      requireMutation(request, allowed);
      throw new AppError(405, `Method not allowed. Use ${allowed.join(" or ")}.`, { headers: { Allow: allowed.join(", ") } });
    });
}
