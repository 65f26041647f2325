import { errorResponse } from "@/server/http/errors";

/** Unknown API paths answer in the standard error shape rather than with the HTML 404 page. */
function notFound(request: Request) {
  return errorResponse(404, "not_found", `no API endpoint at ${request.method} ${new URL(request.url).pathname}`);
}

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
