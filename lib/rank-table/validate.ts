/**
 * The validator: every rule of ../shared/spec/rank-table-rules.md, returning the spec's report.
 * Linear in the size of the table (Maps and Sets for every uniqueness rule), and it never throws.
 */
import { A5_VERSION } from "./a5-model";
import { readA5View } from "./a5-view";
import { checkA5 } from "./checks/a5";
import { checkBackups } from "./checks/backups";
import type { CheckContext } from "./checks/context";
import { checkDevices } from "./checks/devices";
import { checkHeader, checkStatus, checkVersionSupported } from "./checks/header";
import { checkRanks } from "./checks/ranks";
import { checkServers } from "./checks/servers";
import { checkSuperPods, superDeviceIdPresence } from "./checks/super-pods";
import { findingMessage, Findings, type Finding } from "./findings";
import { checkLegacy } from "./checks/legacy";
import { checkOtherFormat, otherFormatOf } from "./checks/other-formats";
import { isLegacyLayout } from "./legacy";
import { readLegacyView } from "./legacy-view";
import { JSON_TYPE_NAMES } from "./messages";
import { impliedVersion, isJsonObject, type Issue, type JsonObject, type JsonValue, type Lang, type RankTableInput, type TableMode, type TableLayout, type ValidationReport } from "./model";
import { parseRankTable, RankTableDocument } from "./parse";
import type { ReportLimits } from "../report-limits";
import { jsonTypeName, readStreamedTableView, readTableView, ViewReader, type StreamedServers } from "./table-view";

export interface ValidateOptions {
  /** Language of the `message` of each issue; codes, severities and paths do not depend on it. Default "en". */
  lang?: Lang;
  /** How many issues the report lists (the rest are counted in `omitted`); default REPORT_LIMITS. */
  limits?: Readonly<ReportLimits>;
}

interface TableSummary {
  version: string | null;
  mode: TableMode;
  layout?: TableLayout;
  stats: ValidationReport["stats"];
}

/** The whole document, as the owner of top-level fields. */
const DOCUMENT = { path: "" };

const EMPTY_SUMMARY: TableSummary = { version: null, mode: "ai-server", stats: { superPods: 0, servers: 0, devices: 0 } };

/**
 * Validates a rank table given as text, as a parsed document (positions come from its text), or as an already
 * parsed value (issues then carry no line and column).
 */
export function validateRankTable(input: string | RankTableDocument | RankTableInput, options: ValidateOptions = {}): ValidationReport {
  const document = typeof input === "string" ? parseRankTable(input) : input instanceof RankTableDocument ? input : undefined;
  const value = document ? document.value : (input as JsonValue);
  const findings = new Findings(options.limits);
  let summary = EMPTY_SUMMARY;
  const problem = document?.syntaxProblem;
  if (problem) {
    const { line, column } = document.positionAt(problem.offset);
    findings.addAtOffset("RT000", `RT000.${problem.reason}`, problem.offset, { line, column, found: problem.found ?? "" });
  } else {
    if (document && document.commentCount > 0) {
      findings.addAtOffset("RT001", "RT001", document.firstCommentOffset, { count: document.commentCount });
    }
    if (isJsonObject(value)) summary = checkTable(value, findings);
    else findings.addMessage("RT000", "RT000.not-object", "", { kind: JSON_TYPE_NAMES[jsonTypeName(value ?? null)] });
  }
  return reportOf(findings, summary, document, options);
}

/**
 * validateRankTable for a "1.0"/"1.2" table without comments whose server_list entries were read as the text
 * streamed in (`servers`, lib/rank-table/table-view.ts) and whose `root` is the rest, its server_list an array of
 * their number: the same checks over the same view, hence the same report. `document` only gives positions (its
 * text; its value is not read). Undefined for a table of another layout (legacy, "2.0", a look-alike format), which
 * is not read this way.
 */
export function validateStreamedTable(root: JsonObject, servers: StreamedServers, document: RankTableDocument | undefined, options: ValidateOptions = {}): ValidationReport | undefined {
  // A number as version is read as its text with one decimal (2 is "2.0"): such a table is read whole.
  if (isLegacyLayout(root) || otherFormatOf(root) !== undefined || root.version === A5_VERSION || typeof root.version === "number") return undefined;
  const findings = new Findings(options.limits);
  const summary = checkTable(root, findings, (reader) => readStreamedTableView(root, reader, servers, findings));
  return reportOf(findings, summary, document, options);
}

function reportOf(findings: Findings, summary: TableSummary, document: RankTableDocument | undefined, options: ValidateOptions): ValidationReport {
  const report: ValidationReport = {
    valid: !findings.hasError,
    ...summary,
    issues: toIssues(findings.list, document, options.lang ?? "en"),
  };
  const omitted = findings.omitted();
  if (omitted) report.omitted = omitted;
  return report;
}

/** `readView` reads the servers and super pods of a "1.0"/"1.2" table for its checks (whole, or as streamed). */
function checkTable(root: JsonObject, findings: Findings, readView = (reader: ViewReader) => readTableView(root, reader)): TableSummary {
  const reader = new ViewReader(findings);
  if (isLegacyLayout(root)) return checkLegacyTable(root, reader, findings);
  const otherFormat = otherFormatOf(root);
  if (otherFormat !== undefined) {
    const { servers, devices } = checkOtherFormat(root, otherFormat, findings);
    return { version: typeof root.version === "string" ? root.version : null, mode: "ai-server", layout: otherFormat.layout, stats: { superPods: 0, servers, devices } };
  }
  const declaredVersion = reader.scalar(root.version, "version", DOCUMENT);
  if (declaredVersion === A5_VERSION) return checkA5Table(root, reader, findings);
  checkStatus(reader.scalar(root.status, "status", DOCUMENT), findings);
  if (!checkVersionSupported(declaredVersion, root, findings)) return { ...EMPTY_SUMMARY, version: declaredVersion ?? null };

  const view = readView(reader);
  const superPodListPresent = root.super_pod_list !== undefined;
  const version = impliedVersion(declaredVersion, superPodListPresent);
  const context: CheckContext = { view, findings, version, declaredVersion, deviceByIp: new Map() };
  const superDeviceIds = superDeviceIdPresence(view.devices);
  checkHeader(context, root, superDeviceIds);
  checkServers(context);
  checkDevices(context);
  checkRanks(context);
  checkBackups(context);
  checkSuperPods(context, superPodListPresent, superDeviceIds);
  return {
    version: declaredVersion ?? null,
    mode: version === "1.2" && view.superPods !== undefined ? "super-pod" : "ai-server",
    stats: { superPods: view.superPods?.length ?? 0, servers: view.servers.length, devices: view.devices.length },
  };
}

/** The legacy template (RT005, a warning): checked by its own rules, RT070–RT079. */
function checkLegacyTable(root: JsonObject, reader: ViewReader, findings: Findings): TableSummary {
  const view = readLegacyView(root, reader);
  findings.addMessage("RT005", `RT005.${view.flavour}`, "");
  checkStatus(reader.scalar(root.status, "status", DOCUMENT), findings);
  checkLegacy(view, findings);
  const servers = new Set(view.instances.map((instance) => instance.serverId)).size;
  return { version: null, mode: "ai-server", layout: `legacy-${view.flavour}`, stats: { superPods: 0, servers, devices: view.devices.length } };
}

/** Version "2.0" (Atlas 350/850/950): RT100–RT124; status is optional there (A5 reference: status 可选). */
function checkA5Table(root: JsonObject, reader: ViewReader, findings: Findings): TableSummary {
  const status = reader.scalar(root.status, "status", DOCUMENT);
  if (status !== undefined) checkStatus(status, findings);
  const view = readA5View(root, reader, findings);
  const { servers, superPods } = checkA5(view, findings, root);
  return { version: A5_VERSION, mode: superPods > 0 ? "super-pod" : "ai-server", layout: A5_VERSION, stats: { superPods, servers, devices: view.ranks.length } };
}

/** Turns findings into issues: with text, each gets its line and column and the list is put in text order. */
function toIssues(findings: Finding[], document: RankTableDocument | undefined, lang: Lang): Issue[] {
  if (document === undefined) {
    return findings.map((finding) => ({ code: finding.code, severity: finding.severity, path: finding.path, message: findingMessage(finding, lang) }));
  }
  const pointers = new Set<string>();
  for (const finding of findings) if (finding.offset === undefined) pointers.add(finding.path);
  const positions = pointers.size > 0 ? document.locateAll(pointers) : new Map();
  const located = findings.map((finding) => {
    const position = finding.offset === undefined ? positions.get(finding.path)! : document.positionAt(finding.offset);
    const issue: Issue = {
      code: finding.code,
      severity: finding.severity,
      path: finding.path,
      message: findingMessage(finding, lang),
      line: position.line,
      column: position.column,
    };
    return { issue, offset: position.offset };
  });
  located.sort((a, b) => a.offset - b.offset);
  return located.map((entry) => entry.issue);
}
