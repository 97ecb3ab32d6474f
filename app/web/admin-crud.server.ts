// The shape every admin list page shares: a loader reading one page of the list (through the
// paging module's one reading of ?page=, docs/decisions/0013), its filters and the row an open
// dialog is about; an action answering create / update / delete with a redirect
// back to the list (and a toast), or the form again with its messages.
import { IdSchema } from "~/utils/schemas";
import { CHECK_FIELDS } from "~/utils/forms";
import type { PageInfo } from "~/utils/pagination";
import type { Actor } from "~/models/staff/staff.server";
import type { Permission } from "~/utils/staff-permissions";
import type { ActionPermission } from "./admin.server";
import { adminForm, backToList, dialogFromUrl, formActor, loadList } from "./admin.server";
import { requireStaff } from "./staff.server";
import { isAppError } from "~/lib/errors.server";
import { pageAction } from "~/lib/form.server";
import { parseWith } from "~/lib/http.server";
import type { ListPage, RowWindow } from "~/lib/paging.server";
import { ADMIN_PAGE, pageInfoOf, parseListQuery } from "~/lib/paging.server";
import { redirectWithToast } from "~/lib/toast.server";

/** How an admin list page reads its list. */
export interface AdminListRead<Q, T, X, E> {
  /** the list's filters from the URL (anything odd falls back to its default) */
  filters: (url: URL) => Q;
  /** one page of the list: the model's `list…Page(filters, window)` */
  list: (filters: Q, window: RowWindow) => Promise<ListPage<T>>;
  /** what the page shows beside the list (the orders' counts, the coupon form's categories) */
  more?: () => Promise<X>;
  /** the row an ?edit=ID or ?delete=ID dialog is about */
  one?: (id: number) => Promise<E | null>;
}

/**
 * Every admin list page's loader: the staff guard with the route's `permission`, the page (ADMIN_PAGE, 10 a page; a page that is
 * not a page number, or past the last, is a 404 like every other page that lists), the list and
 * what goes beside it, or the list's own error message when the database could not be read.
 */
export async function adminListLoader<Q extends object, T, X extends object = Record<never, never>, E = never>(
  request: Request,
  permission: Permission | null,
  read: AdminListRead<Q, T, X, E>,
) {
  await requireStaff(request, permission);
  const url = new URL(request.url);
  const paging = parseListQuery(url, ADMIN_PAGE);
  const query = read.filters(url);
  const dialog = read.one ? dialogFromUrl(url) : null;
  const [result, editing] = await Promise.all([
    loadList(() => Promise.all([read.list(query, paging), read.more ? read.more() : ({} as X)])),
    dialog && dialog.mode !== "new" && read.one ? read.one(dialog.id) : null,
  ]);
  // A dialog about a row that is not there (deleted meanwhile) is simply not opened.
  const page = { ...query, query, dialog: dialog?.mode === "new" || editing ? dialog : null, editing };
  if (result.error !== null) return { ...page, list: null, error: result.error };
  // Past the last page: the 404 is thrown here, outside loadList, which would turn it into the list's message.
  const [found, more] = result.list;
  const list: { rows: T[]; info: PageInfo } & X = { ...more, rows: found.rows, info: pageInfoOf(paging, found.total) };
  return { ...page, list, error: null };
}

/** Enough of a list to say where its last page is: its filters from the URL, and a page of it. */
export interface ListReader<Q> {
  filters: (url: URL) => Q;
  list: (filters: Q, window: RowWindow) => Promise<{ total: number }>;
}

/**
 * Where a write on an admin list goes back to: the list as it was shown (its filters and page),
 * or, when the write emptied that page (its last row deleted, or moved out of the filter), the
 * last page that still has rows: the page the staff were on is past the end now, and a 404.
 * `target` is the list as it was shown (by default the URL the form posted to, without its dialog).
 */
export async function backToListPage<Q>(request: Request, read?: ListReader<Q>, target = backToList(request)): Promise<string> {
  if (!read) return target;
  const url = new URL(target, request.url);
  let page: number;
  try {
    page = parseListQuery(url, ADMIN_PAGE).page;
  } catch {
    return target;
  }
  if (page === 1) return target;
  const { total } = await read.list(read.filters(url), { offset: 0, limit: 1 });
  const last = Math.max(1, Math.ceil(total / ADMIN_PAGE.pageSize));
  if (page <= last) return target;
  if (last === 1) url.searchParams.delete("page");
  else url.searchParams.set("page", String(last));
  return `${url.pathname}${url.search}`;
}

export interface CrudSpec<I, U = I, Q = unknown> {
  /** "Category", "Product", "User": the toasts say "Category added" and so on */
  thing: string;
  /** what the form needs (the route's declared `permissions.action`): checked before the body is read */
  permission: ActionPermission;
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
  /** the model's verbs, told who acts (their audit rows name them) */
  create: (input: I, actor: Actor) => Promise<unknown>;
  update: (id: number, input: U, actor: Actor) => Promise<unknown>;
  remove: (id: number, actor: Actor) => Promise<unknown>;
  /** a second line for the "added" toast */
  addedNote?: string;
  /** more to echo back than the text fields */
  extraValues?: (form: FormData) => Record<string, string>;
  /** other actions on one row (the form's `intent`, with its `id`): each answers the toast's title */
  rowIntents?: Record<string, (id: number, actor: Actor) => Promise<string>>;
  /** the list the form sits on: after a write that empties its page, the staff go to the last page left */
  list?: ListReader<Q>;
}

/**
 * A list's create / update / delete and row actions (the form's `intent`, pageAction's intents): the Origin check and the
 * staff guard (the spec's permission) before the body is read, a field the form does not take refused (adminForm), then a
 * redirect back to the list with a toast, or the form again with its messages and what was typed. The model's verbs are
 * told who acts.
 */
export function adminCrudAction<I, U = I, Q = unknown>(request: Request, spec: CrudSpec<I, U, Q>) {
  const done = async (what: string, description?: string) =>
    redirectWithToast(request, await backToListPage(request, spec.list), { type: "success", title: `${spec.thing} ${what}`, description });
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
        const title = await act(parseWith(IdSchema, form.get("id")), formActor(request));
        return redirectWithToast(request, await backToListPage(request, spec.list), { type: "success", title });
      },
    ]),
  );
  return pageAction(
    request,
    {
      intents: {
        ...rowIntents,
        create: async (form) => {
          await spec.create(await checked(spec.parse(form)), formActor(request));
          return done("added", spec.addedNote);
        },
        update: async (form) => {
          const parseUpdate = spec.parseUpdate ?? (spec.parse as unknown as (form: FormData) => Promise<U>);
          const input = await checked(parseUpdate(form));
          await spec.update(parseWith(IdSchema, form.get("id")), input, formActor(request));
          return done("updated");
        },
        delete: async (form) => {
          await spec.remove(parseWith(IdSchema, form.get("id")), formActor(request));
          return done("deleted");
        },
      },
    },
    {
      read: adminForm(["intent", "id", ...spec.fields, ...(spec.moreFields ?? [])], spec.permission),
      limit: spec.limit,
      echo: spec.fields,
      echoExtra: spec.extraValues,
    },
  );
}
