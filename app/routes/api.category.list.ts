import { apiHandler } from "~/lib/api.server";
import { listCategories } from "~/models/catalogue.server";

export const loader = () => apiHandler(() => listCategories());
