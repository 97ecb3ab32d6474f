// A second reading of the same list (spec section 7).
export { loader } from "./api.category.list";
