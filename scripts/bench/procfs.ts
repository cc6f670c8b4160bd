/**
 * What the benchmark reads from /proc (Linux only): CPU time and memory of a process tree,
 * and the Chromium processes and zombies a run leaves behind.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";

/** clock ticks per second of /proc/<pid>/stat's time fields */
const TICKS = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

export type ProcStat = {
  pid: number;
  comm: string;
  state: string;
  ppid: number;
  /** own CPU plus that of children it has reaped, in ms */
  cpuMs: number;
  /** own CPU alone, in ms */
  ownCpuMs: number;
  /** when it started, in ticks since boot: with pid, its identity */
  startTime: number;
  rssBytes: number;
};

const PAGE_SIZE = 4096;

const read = (path: string): string | null => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
};

export const procStat = (pid: number): ProcStat | null => {
  const text = read(`/proc/${pid}/stat`);
  if (!text) return null;
  // comm is in parentheses and may hold spaces or parentheses itself
  const open = text.indexOf("(");
  const close = text.lastIndexOf(")");
  const fields = text.slice(close + 2).split(" ");
  const num = (index: number) => Number(fields[index - 3]);
  return {
    pid,
    comm: text.slice(open + 1, close),
    state: fields[0] ?? "?",
    ppid: num(4),
    // utime + stime + cutime + cstime: a reaped child's time moves into its parent's, so the sum
    // over a tree's live processes also counts its processes that have exited
    cpuMs: ((num(14) + num(15) + num(16) + num(17)) * 1000) / TICKS,
    ownCpuMs: ((num(14) + num(15)) * 1000) / TICKS,
    startTime: num(22),
    rssBytes: num(24) * PAGE_SIZE,
  };
};

export const allPids = (): number[] =>
  readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number);

export const allProcesses = (): ProcStat[] =>
  allPids()
    .map(procStat)
    .filter((stat): stat is ProcStat => stat !== null);

/** The processes under these roots, the roots included. */
export const descendants = (roots: readonly number[], processes = allProcesses()): ProcStat[] => {
  const children = new Map<number, ProcStat[]>();
  for (const proc of processes) {
    const list = children.get(proc.ppid) ?? [];
    list.push(proc);
    children.set(proc.ppid, list);
  }
  const out: ProcStat[] = [];
  const queue = processes.filter((proc) => roots.includes(proc.pid));
  while (queue.length > 0) {
    const proc = queue.shift() as ProcStat;
    out.push(proc);
    queue.push(...(children.get(proc.pid) ?? []));
  }
  return out;
};

/** Proportional set size: shared pages split between the processes sharing them. */
export const pssBytes = (pid: number): number => {
  const text = read(`/proc/${pid}/smaps_rollup`);
  const match = text?.match(/^Pss:\s+(\d+) kB/m);
  return match ? Number(match[1]) * 1024 : 0;
};

/** The process's peak RSS (VmHWM) since it started or since resetPeakRss. */
export const peakRssBytes = (pid: number): number => {
  const match = read(`/proc/${pid}/status`)?.match(/^VmHWM:\s+(\d+) kB/m);
  return match ? Number(match[1]) * 1024 : 0;
};

/** Resets VmHWM to the current RSS (Linux ≥ 4.0); false where the kernel refuses. */
export const resetPeakRss = (pid: number): boolean => {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
};

const isChromium = (proc: ProcStat): boolean => /chrom/i.test(proc.comm);

/**
 * Whether a process carries this environment entry. Chromium overwrites the memory its
 * environment was in with its process titles, so only its main process and its crash handlers
 * still show it; its zygotes and renderers are found by ancestry instead.
 */
const carries = (pid: number, entry: string): boolean =>
  read(`/proc/${pid}/environ`)?.split("\0").includes(entry) ?? false;

export type ChromiumCensus = {
  /** this run's Chromium processes that are alive (not zombies) */
  chromium: number;
  /** this run's processes that are zombies, and zombies whose parent is one of them */
  zombies: number;
  /** zombies on the whole machine (other programs' included) */
  zombiesOnMachine: number;
};

const identity = (proc: ProcStat) => `${proc.pid}:${proc.startTime}`;

/**
 * Follows a run's Chromium processes however they are reparented: every process under the
 * workers, and every Chromium process carrying the run's environment entry (the crash
 * handlers double-fork away from the browser at once), is remembered by pid and start time
 * from the moment a sample sees it, so a census can tell which of them are still there.
 */
export const trackChromium = (roots: () => readonly number[], envEntry: string, intervalMs = 300) => {
  const seen = new Map<string, ProcStat>();
  const sample = (processes = allProcesses()) => {
    for (const proc of descendants(roots(), processes)) if (isChromium(proc)) seen.set(identity(proc), proc);
    for (const proc of processes) {
      if (isChromium(proc) && proc.state !== "Z" && !seen.has(identity(proc)) && carries(proc.pid, envEntry)) {
        seen.set(identity(proc), proc);
      }
    }
  };
  sample();
  const timer = setInterval(() => sample(), intervalMs);
  return {
    /** how many distinct Chromium processes the run has started so far (that a sample saw) */
    get started(): number {
      return seen.size;
    },
    census: (): ChromiumCensus => {
      const processes = allProcesses();
      sample(processes);
      const ours = processes.filter((proc) => seen.has(identity(proc)));
      const live = new Set(ours.filter((proc) => proc.state !== "Z").map((proc) => proc.pid));
      const zombies = processes.filter((proc) => proc.state === "Z");
      return {
        chromium: live.size,
        zombies: zombies.filter((proc) => seen.has(identity(proc)) || live.has(proc.ppid)).length,
        zombiesOnMachine: zombies.length,
      };
    },
    stop: () => clearInterval(timer),
  };
};

export type TreeSample = {
  at: number;
  /** CPU ms of the workers' trees (live processes plus what they reaped) */
  cpuMs: number;
  /** CPU ms of the worker node processes themselves, without their Chromium */
  nodeCpuMs: number;
  /** RSS of the worker node processes, summed */
  nodeRssBytes: number;
  /** PSS of the whole trees (workers, their Chromium, the init they run under) */
  treePssBytes: number;
  chromium: number;
};

/** A worker as /proc sees it: the process started (maybe an init) and its node process. */
export type WorkerPids = { pid: number; nodePid: number };

export const sampleTrees = (workers: readonly WorkerPids[]): TreeSample => {
  const tree = descendants(workers.map((w) => w.pid));
  const nodes = tree.filter((proc) => workers.some((w) => w.nodePid === proc.pid));
  return {
    at: performance.now(),
    cpuMs: tree.reduce((sum, proc) => sum + proc.cpuMs, 0),
    nodeCpuMs: nodes.reduce((sum, proc) => sum + proc.ownCpuMs, 0),
    nodeRssBytes: nodes.reduce((sum, proc) => sum + proc.rssBytes, 0),
    treePssBytes: tree.reduce((sum, proc) => sum + pssBytes(proc.pid), 0),
    chromium: tree.filter((proc) => isChromium(proc) && proc.state !== "Z").length,
  };
};

export type TreeUsage = {
  cpuMs: number;
  /** of which the node processes themselves */
  nodeCpuMs: number;
  /** CPU ms over wall ms × 100: 100 is one core busy */
  cpuPercent: number;
  /** peak RSS of the largest worker process (VmHWM when it could be reset, else sampled) */
  peakWorkerRssBytes: number;
  /** peak PSS of workers and their Chromium, sampled */
  peakTreePssBytes: number;
  samples: TreeSample[];
};

/** Samples the workers' trees every intervalMs until stopped. */
export const watchTrees = (workers: readonly WorkerPids[], intervalMs = 500) => {
  const nodePids = workers.map((w) => w.nodePid);
  const hwm = nodePids.map(resetPeakRss).every(Boolean);
  const first = sampleTrees(workers);
  const samples: TreeSample[] = [first];
  const timer = setInterval(() => samples.push(sampleTrees(workers)), intervalMs);
  return {
    samples,
    stop: (): TreeUsage => {
      clearInterval(timer);
      const last = sampleTrees(workers);
      samples.push(last);
      const wallMs = last.at - first.at;
      const cpuMs = last.cpuMs - first.cpuMs;
      // nodeRssBytes sums the workers: the sampled fallback is their mean
      const sampledPeak = Math.max(...samples.map((sample) => sample.nodeRssBytes)) / workers.length;
      return {
        cpuMs,
        nodeCpuMs: last.nodeCpuMs - first.nodeCpuMs,
        cpuPercent: wallMs > 0 ? (cpuMs / wallMs) * 100 : 0,
        peakWorkerRssBytes: hwm ? Math.max(...nodePids.map(peakRssBytes)) : sampledPeak,
        peakTreePssBytes: Math.max(...samples.map((sample) => sample.treePssBytes)),
        samples,
      };
    },
  };
};

/** Live Chromium processes under these roots. */
export const chromiumUnder = (roots: readonly number[]): ProcStat[] =>
  descendants(roots).filter((proc) => isChromium(proc) && proc.state !== "Z");
