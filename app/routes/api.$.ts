// The HTTP API (docs/api.md): one resource route for every /api path, each answered by its own
// endpoint module beside this one (api.*.ts, web/api-endpoints.server), or by the JSON 404 of
// docs/api.md.
import { answerApi } from "~/web/api-endpoints.server";

export const loader = answerApi;
export const action = answerApi;
