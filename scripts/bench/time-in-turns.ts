/** Best-of-runs times of each piece of work, run in turns so that every one meets a similar heap and GC state. */
export function timeInTurns(runs: number, work: (() => unknown)[]): number[] {
  const best = work.map(() => Infinity);
  // The first third of the runs only warms up: the JIT optimises the hot paths before anything is measured.
  const warmUps = Math.ceil(runs / 3);
  for (let run = 0; run < warmUps + runs; run++) {
    work.forEach((piece, index) => {
      const start = performance.now();
      piece();
      const elapsed = performance.now() - start;
      if (run >= warmUps) best[index] = Math.min(best[index]!, elapsed);
    });
  }
  return best;
}
