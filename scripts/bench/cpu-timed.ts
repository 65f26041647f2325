/** One synchronous run's wall and CPU time (user + system): on a loaded machine wall time is noise, CPU is not. */
export interface Timing {
  wall: number;
  cpu: number;
}

export function timed<T>(work: () => T): { value: T } & Timing {
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  const value = work();
  const wall = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  return { value, wall, cpu: (cpu.user + cpu.system) / 1000 };
}

export const fmt = ({ wall, cpu }: Timing) => `${cpu.toFixed(0)} ms CPU (${wall.toFixed(0)} ms wall)`;
