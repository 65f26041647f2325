/** Top-level rules: status (RT010, RT011), version (RT012–RT014), server_count (RT015, RT016), server_list (RT017). */
import type { Findings } from "../findings";
import type { JsonObject } from "../model";
import { parseWholeNumber } from "../net";
import type { TableView } from "../table-view";

/** What the header rules read of the table's view. */
type HeaderView = Pick<TableView, "serverCount" | "serverEntryCount" | "serverListMissing">;
import type { SuperDeviceIdPresence } from "./super-pods";

export function checkStatus(status: string | undefined, findings: Findings): void {
  if (status === undefined) findings.addMessage("RT010", "RT010.missing", "");
  else if (status === "initializing") findings.add("RT011", "/status");
  else if (status !== "completed") findings.add("RT010", "/status", { value: status });
}

/** Reports a version Rankscope cannot check; returns false when checking should stop there. */
export function checkVersionSupported(version: string | undefined, root: JsonObject, findings: Findings): boolean {
  if (version === undefined) {
    if (root.server_list !== undefined) findings.addMessage("RT012", "RT012.missing", "");
    return true;
  }
  if (version === "1.0" || version === "1.2") return true;
  if (version === "1.1") findings.addMessage("RT012", "RT012.heterogeneous", "/version");
  else findings.add("RT012", "/version", { value: version });
  return false;
}

/** RT013–RT017; `superDeviceIds` tells the first device with a super_device_id (RT013 in a "1.0" table). */
export function checkHeader({ view, findings, declaredVersion }: { view: HeaderView; findings: Findings; declaredVersion: string | undefined }, root: JsonObject, superDeviceIds: SuperDeviceIdPresence): void {
  if (declaredVersion === "1.0") {
    if (root.super_pod_list !== undefined) findings.add("RT013", "/super_pod_list", { field: "super_pod_list" });
    const withSuperDeviceId = superDeviceIds.withId > 0 ? superDeviceIds.firstWhere(true) : undefined;
    if (withSuperDeviceId) findings.add("RT013", `${withSuperDeviceId.path}/super_device_id`, { field: "super_device_id" });
    if (view.serverCount === undefined) findings.add("RT015", "", { count: view.serverEntryCount });
  }
  if (declaredVersion === "1.2" && root.super_pod_list === undefined) findings.add("RT014", "/version");
  checkServerCount(view, findings);
  if (view.serverListMissing) findings.add("RT017", root.server_list === undefined ? "" : "/server_list");
}

function checkServerCount(view: HeaderView, findings: Findings): void {
  if (view.serverCount === undefined || view.serverListMissing) return;
  if (parseWholeNumber(view.serverCount) !== view.serverEntryCount) {
    findings.add("RT016", "/server_count", { value: view.serverCount, count: view.serverEntryCount });
  }
}
