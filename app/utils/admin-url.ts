// The admin lists keep all their state in the URL: ?q=&page=&category=&status= plus one of
// ?new=1, ?edit=ID or ?delete=ID for the open dialog. These build the links between them.

const DIALOG_PARAMS = ["new", "edit", "delete"] as const;

/** `search` with `changes` applied (null or "" removes a parameter); "" when nothing is left. */
export function withParams(search: string | URLSearchParams, changes: Record<string, string | number | null | undefined>): string {
  const params = new URLSearchParams(search);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === undefined || value === "") params.delete(key);
    else params.set(key, String(value));
  }
  const out = params.toString();
  return out ? `?${out}` : "";
}

/** The list as it was, without an open dialog: where saving, deleting and Cancel go back to. */
export function listSearch(search: string | URLSearchParams): string {
  return withParams(search, Object.fromEntries(DIALOG_PARAMS.map((p) => [p, null])));
}
