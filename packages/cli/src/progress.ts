/** Progress on stderr, so stdout holds only the report (or the JSON). */
export type Progress = { update: (status: string) => void; stop: () => void };

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** A spinner with the status and elapsed time on a terminal; one line per new status otherwise. */
export const createProgress = (stream: NodeJS.WriteStream, label: string): Progress => {
  const started = Date.now();
  let status = "starting";
  let last = "";
  if (!stream.isTTY) {
    return {
      update: (next) => {
        if (next === last) return;
        last = next;
        stream.write(`${label}: ${next} (${Math.round((Date.now() - started) / 1000)} s)\n`);
      },
      stop: () => undefined,
    };
  }
  let frame = 0;
  const draw = () => {
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    stream.write(`\r\x1b[2K${FRAMES[frame++ % FRAMES.length]} ${label}: ${status} (${seconds} s)`);
  };
  const timer = setInterval(draw, 100);
  timer.unref();
  return {
    update: (next) => {
      status = next;
      draw();
    },
    stop: () => {
      clearInterval(timer);
      stream.write("\r\x1b[2K");
    },
  };
};
