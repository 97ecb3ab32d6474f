// The shape every admin list page shares: a loader reading the list, its URL state and the
// row an open dialog is about; an action answering create / update / delete with a redirect
// back to the list (and a toast), or the form again with its messages.
import { IdSchema } from "~/utils/schemas";
import type { AdminListQuery } from "~/utils/admin-schemas";
import { parseAdminListQuery } from "~/utils/admin-schemas";
import { backToList, dialogFromUrl, loadList, readAdminForm, requireAdmin } from "./admin.server";
import { AppError } from "~/lib/errors.server";
import { formAction, formValues } from "~/lib/form.server";
import { parseWith } from "~/lib/http.server";
import { redirectWithToast } from "~/lib/toast.server";

export const CHECK_FIELDS = "Please check the highlighted fields.";

export async function adminListLoader<L, E>(request: Request, read: { list: (query: AdminListQuery) => Promise<L>; one: (id: number) => Promise<E | null> }) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const query = parseAdminListQuery(url);
  const dialog = dialogFromUrl(url);
  const [result, editing] = await Promise.all([loadList(() => read.list(query)), dialog && dialog.mode !== "new" ? read.one(dialog.id) : null]);
  // A dialog about a row that is not there (deleted meanwhile) is simply not opened.
  return { ...result, query, q: query.q, dialog: dialog?.mode === "new" || editing ? dialog : null, editing };
}

export interface CrudSpec<I> {
  /** "Category", "Product", "User": the toasts say "Category added" and so on */
  thing: string;
  /** the form's text fields, echoed back when the form is shown again */
  fields: string[];
  /** the largest body accepted (forms with an image upload need more) */
  limit?: number;
  /** the form as the model's input: parsed with zod (400 with field messages otherwise) */
  parse: (form: FormData) => Promise<I>;
  create: (input: I) => Promise<unknown>;
  update: (id: number, input: I) => Promise<unknown>;
  remove: (id: number) => Promise<unknown>;
  /** a second line for the "added" toast */
  addedNote?: string;
  /** more to echo back than the text fields */
  extraValues?: (form: FormData) => Record<string, string>;
}

export async function adminCrudAction<I>(request: Request, spec: CrudSpec<I>) {
  let form: FormData | undefined;
  return formAction(
    async () => {
      form = await readAdminForm(request, spec.limit);
      const intent = form.get("intent");
      const back = backToList(request);
      const done = (what: string, description?: string) => redirectWithToast(request, back, { type: "success", title: `${spec.thing} ${what}`, description });
      if (intent === "delete") {
        await spec.remove(parseWith(IdSchema, form.get("id")));
        return done("deleted");
      }
      const input = await spec.parse(form).catch((error: unknown) => {
        // Messages stand beside their fields; the banner says to look at them.
        if (error instanceof AppError && error.status === 400 && Object.keys(error.fieldErrors ?? {}).length > 0) {
          throw new AppError(400, CHECK_FIELDS, error.fieldErrors);
        }
        throw error;
      });
      if (intent === "update") {
        await spec.update(parseWith(IdSchema, form.get("id")), input);
        return done("updated");
      }
      await spec.create(input);
      return done("added", spec.addedNote);
    },
    () => (form ? { ...formValues(form, spec.fields), ...spec.extraValues?.(form) } : {}),
  );
}
