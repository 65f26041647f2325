import type { DiagnoseOptions, DiagnosisReport, LogFile } from "./model";

/** Streaming diagnoser: feed files one after another (addFile, then addChunk/addLine), then finish(). */
export class LogDiagnoser {
  constructor(private readonly options: DiagnoseOptions = {}) {}
  addFile(path: string): void {
    void path;
  }
  addChunk(text: string): void {
    void text;
  }
  addLine(line: string): void {
    void line;
  }
  finish(): DiagnosisReport {
    void this.options;
    throw new Error("not implemented yet");
  }
}

export function diagnoseTexts(files: LogFile[], options: DiagnoseOptions = {}): DiagnosisReport {
  const diagnoser = new LogDiagnoser(options);
  for (const file of files) {
    diagnoser.addFile(file.path);
    diagnoser.addChunk(file.text);
  }
  return diagnoser.finish();
}
