/**
 * Where the checks' time goes: the shared steps of reading a page (parsing, main-content
 * extraction, text segmentation, JSON-LD expansion) and each check, timed exclusively (a check
 * that triggers a shared step is not charged for it). Off unless a profile is recording, and
 * then only one `performance.now()` pair a step: `pnpm bench:checks` records one.
 */
export type ProfileStep = "parse" | "main-content" | "segmentation" | "json-ld";

/** milliseconds spent in each frame, exclusive of the frames run inside it */
export type Profile = Map<string, number>;

type Frame = { name: string; started: number; inner: number };

let recording: { profile: Profile; stack: Frame[] } | null = null;

/** Runs `compute` as the named frame of the profile being recorded, if any. */
export const profiled = <T>(name: string, compute: () => T): T => {
  if (recording === null) return compute();
  const { profile, stack } = recording;
  const frame: Frame = { name, started: performance.now(), inner: 0 };
  stack.push(frame);
  try {
    return compute();
  } finally {
    stack.pop();
    const total = performance.now() - frame.started;
    profile.set(name, (profile.get(name) ?? 0) + total - frame.inner);
    const parent = stack[stack.length - 1];
    if (parent) parent.inner += total;
  }
};

/** Records the frames `run` goes through, into a profile of their exclusive times. */
export const recordProfile = (run: () => void): Profile => {
  if (recording !== null) throw new Error("a profile is already recording");
  const profile: Profile = new Map();
  recording = { profile, stack: [] };
  try {
    run();
  } finally {
    recording = null;
  }
  return profile;
};
