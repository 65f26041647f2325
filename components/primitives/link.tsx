import NextLink from "next/link";
import type { ComponentProps } from "react";

/**
 * Next's Link without its prefetch. Every console page is rendered per request (its data is the cluster's now), so a
 * prefetch brings only the route's tree, not the page; yet each page load prefetched every link in view (the
 * sidebar's, the breadcrumbs'): 15 requests on a topology page, answered by the same 2-core server and handled on the
 * page's main thread while it draws (issue 21). A click fetches the page as before. eslint sends every link here.
 */
export function Link(props: ComponentProps<typeof NextLink>) {
  return <NextLink prefetch={false} {...props} />;
}
