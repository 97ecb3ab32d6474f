// A second reading of the same list (docs/api.md, Catalogue).
export { action, loader } from "./api.category.list";
