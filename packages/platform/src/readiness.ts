import { z } from "zod";

/**
 * Readiness for orchestrators: every dependency probed at once, each bounded by the same
 * short timeout, so /readyz answers within that bound even when a dependency hangs. The
 * answer names the failing dependency but never its error text (which can carry hosts and
 * users); the caller logs the cause.
 */
export type Probe = () => Promise<boolean | undefined | unknown>;

/** One dependency's answer: how long the probe took, and why it failed. */
export const ProbeResult = z.union([
  z.object({ ok: z.literal(true), ms: z.int().nonnegative() }),
  z.object({ ok: z.literal(false), ms: z.int().nonnegative(), error: z.enum(["timeout", "unreachable", "not ready"]) }),
]);
export type ProbeResult = z.infer<typeof ProbeResult>;

/** GET /readyz: 200 when every dependency answered, else 503 with the same shape. */
export const Readiness = z.object({ ok: z.boolean(), checks: z.record(z.string(), ProbeResult) });
export type Readiness = z.infer<typeof Readiness>;

/** GET /healthz: the process serves. */
export const Liveness = z.object({ ok: z.literal(true) });
export type Liveness = z.infer<typeof Liveness>;

class ProbeTimeout extends Error {}

const timed = async (probe: Probe, timeoutMs: number): Promise<unknown> => {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      probe(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new ProbeTimeout()), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
};

export const probeAll = async (
  probes: Record<string, Probe>,
  timeoutMs: number,
  onFailure: (name: string, cause: unknown) => void = () => undefined,
): Promise<Readiness> => {
  const entries = await Promise.all(
    Object.entries(probes).map(async ([name, probe]): Promise<[string, ProbeResult]> => {
      const started = performance.now();
      const ms = () => Math.round(performance.now() - started);
      try {
        const answer = await timed(probe, timeoutMs);
        if (answer === false) {
          onFailure(name, new Error(`${name} is not ready`));
          return [name, { ok: false, ms: ms(), error: "not ready" }];
        }
        return [name, { ok: true, ms: ms() }];
      } catch (error) {
        onFailure(name, error);
        return [name, { ok: false, ms: ms(), error: error instanceof ProbeTimeout ? "timeout" : "unreachable" }];
      }
    }),
  );
  const checks = Object.fromEntries(entries);
  return { ok: entries.every(([, result]) => result.ok), checks };
};
