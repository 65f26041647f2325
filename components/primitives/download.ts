"use client";

/** Saves a Blob as a file. Its URL is revoked 10 s later: the browser may still be reading a large table's parts. */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function downloadText(text: string, fileName: string, type: string): void {
  downloadBlob(new Blob([text], { type }), fileName);
}

/** CSV with a byte order mark, which makes spreadsheet programs read it as UTF-8. */
export function downloadCsv(text: string, fileName: string): void {
  downloadBlob(new Blob(["\ufeff", text], { type: "text/csv;charset=utf-8" }), fileName);
}
