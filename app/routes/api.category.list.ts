import { apiHandler } from "~/lib/api.server";
import { otherMethods } from "~/lib/api-params.server";
import { listCategories } from "~/models/catalogue.server";

export const loader = () => apiHandler(() => listCategories());
export const action = otherMethods(["GET"]);
