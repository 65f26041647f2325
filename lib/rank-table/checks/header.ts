/** Top-level rules: status (RT010, RT011), version (RT012–RT014), server_count (RT015, RT016), server_list (RT017). */
import type { Findings } from "../findings";
import type { JsonObject } from "../model";
import { parseWholeNumber } from "../net";
import type { TableView } from "../table-view";
import type { CheckContext } from "./context";

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

export function checkHeader(context: CheckContext, root: JsonObject): void {
  const { view, findings, declaredVersion } = context;
  if (declaredVersion === "1.0") {
    if (root.super_pod_list !== undefined) findings.add("RT013", "/super_pod_list", { field: "super_pod_list" });
    const withSuperDeviceId = view.devices.find((device) => device.superDeviceId !== undefined);
    if (withSuperDeviceId) findings.add("RT013", `${withSuperDeviceId.path}/super_device_id`, { field: "super_device_id" });
    if (view.serverCount === undefined) findings.add("RT015", "", { count: view.serverEntryCount });
  }
  if (declaredVersion === "1.2" && root.super_pod_list === undefined) findings.add("RT014", "/version");
  checkServerCount(view, findings);
  if (view.serverListMissing) findings.add("RT017", root.server_list === undefined ? "" : "/server_list");
}

function checkServerCount(view: TableView, findings: Findings): void {
  if (view.serverCount === undefined || view.serverListMissing) return;
  if (parseWholeNumber(view.serverCount) !== view.serverEntryCount) {
    findings.add("RT016", "/server_count", { value: view.serverCount, count: view.serverEntryCount });
  }
}
