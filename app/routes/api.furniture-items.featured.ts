import { apiHandler } from "~/lib/api.server";
import { listFeatured } from "~/models/catalogue.server";

export const loader = () => apiHandler(() => listFeatured());
