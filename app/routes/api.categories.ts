// A second reading of the same list (spec section 7).
export { action, loader } from "./api.category.list";
