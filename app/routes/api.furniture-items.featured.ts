import { apiHandler } from "~/lib/api.server";
import { otherMethods } from "~/lib/api-params.server";
import { listFeatured } from "~/models/catalogue.server";

export const loader = () => apiHandler(() => listFeatured());
export const action = otherMethods(["GET"]);
