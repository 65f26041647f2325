/**
 * What the fault pages do with the event stream (/api/v1/events): fetch again on `faults` (new events were written),
 * on `resync` (the server's LISTEN connection was lost and is back: notices may have been missed) and when the
 * browser's EventSource reconnects after an error (the stream was down: notices may have been missed too). Takes any
 * EventTarget so that it is testable without a browser. Returns the function that stops listening.
 */
export function watchFaultEvents(source: EventTarget, refetch: () => void): () => void {
  let interrupted = false;
  const onError = () => {
    interrupted = true;
  };
  const onOpen = () => {
    if (!interrupted) return;
    interrupted = false;
    refetch();
  };
  source.addEventListener("faults", refetch);
  source.addEventListener("resync", refetch);
  source.addEventListener("error", onError);
  source.addEventListener("open", onOpen);
  return () => {
    source.removeEventListener("faults", refetch);
    source.removeEventListener("resync", refetch);
    source.removeEventListener("error", onError);
    source.removeEventListener("open", onOpen);
  };
}
