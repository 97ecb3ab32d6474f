// The window an admin list page reads (ADMIN_PAGE, 10 a page) for a page number, as the list
// loaders ask the models for it.
import type { RowWindow } from "~/lib/paging.server";
import { ADMIN_PAGE } from "~/lib/paging.server";

export const adminWindow = (page: number): RowWindow => ({ offset: (page - 1) * ADMIN_PAGE.pageSize, limit: ADMIN_PAGE.pageSize });
