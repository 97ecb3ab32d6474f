// The shape every admin list page shares: a loader reading the list, its URL state and the
// row an open dialog is about; an action answering create / update / delete with a redirect
// back to the list (and a toast), or the form again with its messages.
import { IdSchema } from "~/utils/schemas";
import type { AdminListQuery } from "~/utils/admin-schemas";
import { parseAdminListQuery } from "~/utils/admin-schemas";
import { CHECK_FIELDS } from "~/utils/forms";
import { adminForm, backToList, dialogFromUrl, loadList, requireAdmin } from "./admin.server";
import { isAppError } from "~/lib/errors.server";
import { pageAction } from "~/lib/form.server";
import { parseWith } from "~/lib/http.server";
import { redirectWithToast } from "~/lib/toast.server";

export async function adminListLoader<L, E>(
  request: Request,
  read: { list: (query: AdminListQuery) => Promise<L>; one: (id: number) => Promise<E | null> },
) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const query = parseAdminListQuery(url);
  const dialog = dialogFromUrl(url);
  const [result, editing] = await Promise.all([
    loadList(() => read.list(query)),
    dialog && dialog.mode !== "new" ? read.one(dialog.id) : null,
  ]);
  // A dialog about a row that is not there (deleted meanwhile) is simply not opened.
  return { ...result, query, q: query.q, dialog: dialog?.mode === "new" || editing ? dialog : null, editing };
}

export interface CrudSpec<I, U = I> {
  /** "Category", "Product", "User": the toasts say "Category added" and so on */
  thing: string;
  /** the form's text fields, echoed back when the form is shown again */
  fields: string[];
  /**
   * the form's other fields (checkboxes, lists, files); with `fields`, `intent` and `id` they are
   * all the form takes: any other field is refused (400)
   */
  moreFields?: string[];
  /** the largest body accepted (forms with an image upload need more) */
  limit?: number;
  /** the form as the model's input: parsed with zod (400 with field messages otherwise) */
  parse: (form: FormData) => Promise<I>;
  /** the edit form as the model's input, when it differs from the new-row form's (default: parse) */
  parseUpdate?: (form: FormData) => Promise<U>;
  create: (input: I) => Promise<unknown>;
  update: (id: number, input: U) => Promise<unknown>;
  remove: (id: number) => Promise<unknown>;
  /** a second line for the "added" toast */
  addedNote?: string;
  /** more to echo back than the text fields */
  extraValues?: (form: FormData) => Record<string, string>;
  /** other actions on one row (the form's `intent`, with its `id`): each answers the toast's title */
  rowIntents?: Record<string, (id: number) => Promise<string>>;
}

/**
 * A list's create / update / delete and row actions (the form's `intent`, pageAction's intents): the Origin check and the admin
 * guard before the body is read, a field the form does not take refused (adminForm), then a redirect back to the list with a
 * toast, or the form again with its messages and what was typed.
 */
export function adminCrudAction<I, U = I>(request: Request, spec: CrudSpec<I, U>) {
  const done = (what: string, description?: string) =>
    redirectWithToast(request, backToList(request), { type: "success", title: `${spec.thing} ${what}`, description });
  // The form's own fields refused: their messages stand beside them, the banner says to
  // look there. (Refusals by the model, such as a taken email, keep their own banner.)
  const checked = <T>(parsed: Promise<T>) =>
    parsed.catch((error: unknown) => {
      if (isAppError(error, "BAD_REQUEST") && Object.keys(error.fieldErrors ?? {}).length > 0) throw error.withMessage(CHECK_FIELDS);
      throw error;
    });
  const rowIntents = Object.fromEntries(
    Object.entries(spec.rowIntents ?? {}).map(([intent, act]) => [
      intent,
      async (form: FormData) => {
        const title = await act(parseWith(IdSchema, form.get("id")));
        return redirectWithToast(request, backToList(request), { type: "success", title });
      },
    ]),
  );
  return pageAction(
    request,
    {
      intents: {
        ...rowIntents,
        create: async (form) => {
          await spec.create(await checked(spec.parse(form)));
          return done("added", spec.addedNote);
        },
        update: async (form) => {
          const parseUpdate = spec.parseUpdate ?? (spec.parse as unknown as (form: FormData) => Promise<U>);
          const input = await checked(parseUpdate(form));
          await spec.update(parseWith(IdSchema, form.get("id")), input);
          return done("updated");
        },
        delete: async (form) => {
          await spec.remove(parseWith(IdSchema, form.get("id")));
          return done("deleted");
        },
      },
    },
    {
      read: adminForm(["intent", "id", ...spec.fields, ...(spec.moreFields ?? [])]),
      limit: spec.limit,
      echo: spec.fields,
      echoExtra: spec.extraValues,
    },
  );
}
