/**
 * Node flags of the console's server process (scripts/serve.ts), and of the ingestion bench's route process so that
 * it measures what runs. A larger young generation (64 MB semi-spaces instead of Node's 16 MB): a fault batch's
 * objects (1,000 parsed events, their rows and parameters) live across several database round trips, so with the
 * default most of them survived a scavenge or two and were copied, or promoted and collected again by a full GC;
 * with 4 batches in flight the route process spent about a fifth less CPU per event with it (npm run bench -- faults).
 * The cost is up to ~150 MB more memory at peak.
 */
export const serverNodeFlags = ["--max-semi-space-size=64"];
